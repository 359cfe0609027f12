⍝ f⍤k where f encloses each cell: a nested array of the frame's shape (known when compiling), like ↓ for rows.
⍝ Checked by hand: the rows of 2 3⍴⍳6 are 1 2 3 and 4 5 6 (sums 6 15), reversed 3 2 1 and 6 5 4; the planes of
⍝ 2 2 2⍴⍳8 are the matrices 1 2/3 4 and 5 6/7 8, shown side by side.
⍝>  1 2 3  4 5 6
⍝> 2
⍝>  3 2 1  6 5 4
⍝>  ab  cd
⍝> 6 15
⍝> 1
⍝>  1 2  5 6
⍝>  3 4  7 8
M←2 3⍴⍳6
⊂⍤1⊢M
≢⊂⍤1⊢M
{⊂⌽⍵}⍤1⊢M
⊂⍤1⊢2 2⍴'abcd'
+/¨⊂⍤1⊢M
(⊂⍤1⊢M)≡↓M
⊂⍤2⊢2 2 2⍴⍳8
