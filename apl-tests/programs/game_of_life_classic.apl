⍝ Conway's Life in the classic APL form: the nine shifted boards as a 3×3 nested matrix of ⊂⍵ rotated (∘.⊖ and
⍝ ∘.⌽), summed (+/, of nine enclosed boards is one enclosed board), compared with 3 and 4, combined with 1 and the
⍝ board by ∨.∧, disclosed (↑, or ⊃ in the second form). Checked by hand on a glider on a 6×6 torus:
⍝ - the board has 5 live cells, and so does every generation of a glider;
⍝ - a glider moves one row down and one column right every 4 generations: rows 1-3 of the board (.X. / ..X / XXX in
⍝   columns 1-3) become rows 2-4 in columns 2-4;
⍝ - after 24 generations it has moved 6 and 6, once round the torus: the board again (1);
⍝ - both forms of life, and the form with the eight rotations written out, agree on generation 7 (1 1);
⍝ - a blinker (three in the middle row of a 5×5 board) turns into three in the middle column, and back (1).
⍝> 5
⍝> 0 0 0 0 0 0
⍝> 0 0 1 0 0 0
⍝> 0 0 0 1 0 0
⍝> 0 1 1 1 0 0
⍝> 0 0 0 0 0 0
⍝> 0 0 0 0 0 0
⍝> 1
⍝> 1 1
⍝> 0 0 0 0 0
⍝> 0 0 1 0 0
⍝> 0 0 1 0 0
⍝> 0 0 1 0 0
⍝> 0 0 0 0 0
⍝> 1
life←{↑1 ⍵∨.∧3 4=+/,¯1 0 1∘.⊖¯1 0 1∘.⌽⊂⍵}
life2←{⊃1 ⍵∨.∧3 4=+/,¯1 0 1∘.⊖¯1 0 1∘.⌽⊂⍵}
flat←{
  n←(1⊖⍵)+(¯1⊖⍵)+(1⌽⍵)+(¯1⌽⍵)+(1⊖1⌽⍵)+(1⊖¯1⌽⍵)+(¯1⊖1⌽⍵)+¯1⊖¯1⌽⍵
  (n=3)∨⍵∧n=2
}
glider←6 6↑3 3⍴0 1 0 0 0 1 1 1 1
+/,life glider
(life⍣4)glider
glider≡(life⍣24)glider
seven←(life⍣7)glider
(seven≡(life2⍣7)glider),seven≡(flat⍣7)glider
blinker←5 5⍴(10⍴0),0 1 1 1 0,10⍴0
life blinker
blinker≡life life blinker
