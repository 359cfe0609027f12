⍝ f⍤g (atop): f g ⍵ monadically, f (⍺ g ⍵) dyadically. Checked by hand: -⌽1 2 3 is ¯3 ¯2 ¯1; -(3+4) is ¯7; ⌽ of
⍝ 1 2 3,4 5 is 5 4 3 2 1; +/ of |¯1 2 ¯3 is 6.
⍝> ¯3 ¯2 ¯1
⍝> ¯7
⍝> 5 4 3 2 1
⍝> 6
-⍤⌽1 2 3
3 -⍤+ 4
1 2 3 ⌽⍤, 4 5
+/⍤| ¯1 2 ¯3
