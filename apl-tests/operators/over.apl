⍝ ⍥ (over): f⍥g ⍵ is f g ⍵ and ⍺ f⍥g ⍵ is (g ⍺) f (g ⍵). Checked by hand: -⍥| ¯5 is -5; 3 +⍥| ¯5 is 3+5;
⍝ (⍳3) ⌊⍥(×∘2) 3 1 2 is 2 4 6 ⌊ 6 2 4; 'abc' ≡⍥⍴ 'xyz' compares the shapes 3 and 3; with dfns, the sum of squares
⍝ of 1 2 and 3 4 is 1 4 + 9 16.
⍝> ¯5
⍝> 8
⍝> 2 2 4
⍝> 1
⍝> 10 20
-⍥| ¯5
3 +⍥| ¯5
(⍳3)⌊⍥(×∘2)3 1 2
'abc'≡⍥⍴'xyz'
1 2 {⍺+⍵}⍥{⍵×⍵} 3 4
