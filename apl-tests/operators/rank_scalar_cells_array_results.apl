⍝ f⍤0 whose f gives arrays: each scalar cell's result is a row (the prelude's loop over cells, after the each that
⍝ needs scalar results is given up). Checked by hand: {⍵,⍵×⍵} on 1 2 3 gives the rows 1 1, 2 4, 3 9; ⍺×⍤0 1 with
⍝ ⍺ ⍳3 and ⍵ ⍳4 gives the rows 1×⍳4, 2×⍳4, 3×⍳4 (an outer product); (⍳3)+⍤0 1⊢4 5 adds each of 1 2 3 to 4 5; with
⍝ cells of rank 0 of both: ⍺ ⍵ pairs as rows. A function with scalar results stays an each: {⍵×2}⍤0 gives 2 4 6.
⍝> 1 1
⍝> 2 4
⍝> 3 9
⍝> 1 2 3  4
⍝> 2 4 6  8
⍝> 3 6 9 12
⍝> 5 6
⍝> 6 7
⍝> 7 8
⍝> 1 4
⍝> 2 5
⍝> 3 6
⍝> 2 4 6
{⍵,⍵×⍵}⍤0⊢1 2 3
(⍳3)×⍤0 1⊢⍳4
(⍳3)+⍤0 1⊢4 5
1 2 3{⍺,⍵}⍤0⊢4 5 6
{⍵×2}⍤0⊢1 2 3
