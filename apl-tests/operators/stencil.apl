⍝ ⌺ (stencil, prelude stencil_cells) with odd window sizes: f gets the window centred on each position of the
⍝ leading axes, with zero (or blank) fill beyond the edges, and as ⍺ the fill rows per axis (positive before,
⍝ negative after). Checked by hand:
⍝ - 3×3 window sums of 4 5⍴⍳20: the corner (1,1) sums 1 2 6 7 = 16; (2,2) sums rows 1-3, columns 1-3 = 63; (4,5)
⍝   sums 14 15 19 20 = 68.
⍝ - Windows of 5 on 1..5: 0 0 1 2 3 = 6, 0 1 2 3 4 = 10, 15, 2 3 4 5 0 = 14, 3 4 5 0 0 = 12.
⍝ - ⍺ with windows of 3 on a vector of 4: 1 at the first position, ¯1 at the last.
⍝ - One generation of Life (a glider) with a rule of the 3×3 window: the glider moves one step.
⍝ - Windows of 3 rows of a 3×2 matrix (columns whole): 1+2+3+4 = 10, all = 21, 3+4+5+6 = 18.
⍝ - Sizes over steps (a matrix operand) with steps 1; characters padded with blanks.
⍝ - The window of a run-time length vector: its centre items (⍵[2]) are the vector itself.
⍝> 16  27  33  39 28
⍝> 39  63  72  81 57
⍝> 69 108 117 126 87
⍝> 56  87  93  99 68
⍝> 6 10 15 14 12
⍝>  1 3
⍝>  0 6
⍝>  0 9
⍝> ¯1 7
⍝> 0 0 0 0 0
⍝> 0 0 0 0 0
⍝> 0 1 0 1 0
⍝> 0 0 1 1 0
⍝> 0 0 1 0 0
⍝> 10 21 18
⍝> 0 1 2
⍝> 1 2 3
⍝> 2 3 0
⍝>  ab
⍝> abc
⍝> bc
⍝> 1 2 3 4 5 6 7
{+/,⍵}⌺3 3⊢4 5⍴⍳20
{+/⍵}⌺5⊢1 2 3 4 5
{⍺,+/⍵}⌺3⊢1 2 3 4
life←{c←+/,⍵ ⋄ (c=3)∨(c=4)∧⍵[2;2]}
life⌺3 3⊢5 5⍴0 0 0 0 0 0 0 1 0 0 0 0 0 1 0 0 1 1 1 0 0 0 0 0 0
{+/,⍵}⌺3⊢3 2⍴⍳6
{⍵}⌺(2 1⍴3 1)⊢1 2 3
{⍵}⌺3⊢'abc'
n←7 ⎕ArgInt 1
{⍵[2]}⌺3⊢⍳n
