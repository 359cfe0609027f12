⍝ @ on arrays of rank 2 or more: indices select major cells (rows of a matrix, planes of a rank-3 array), a mask
⍝ function selects elements; the replacement is an array of the selection's items, a scalar, or a function of the
⍝ selected cells (or of the selected elements, as a vector). Checked by hand on M←3 3⍴⍳9 (n is 3 when running):
⍝ rows 1 and 3 become 10 20 30 and 40 50 60; odd elements become 0; elements above 5 are negated; the a's of
⍝ 2 3⍴'banana' become *; the second plane of 2 2 2⍴⍳8 becomes 0; row 1 reversed; rows 3 and 1 become 100.
⍝> 10 20 30
⍝>  4  5  6
⍝> 40 50 60
⍝> 0 2 0
⍝> 4 0 6
⍝> 0 8 0
⍝>  1  2  3
⍝>  4  5 ¯6
⍝> ¯7 ¯8 ¯9
⍝> b*n
⍝> *n*
⍝> 1 2
⍝> 3 4
⍝>
⍝> 0 0
⍝> 0 0
⍝> 3 2 1
⍝> 4 5 6
⍝> 7 8 9
⍝> 100 100 100
⍝>   4   5   6
⍝> 100 100 100
n←3 ⎕ArgInt 1
M←n n⍴⍳9
(2 3⍴10×⍳6)@1 3⊢M
0@(2∘|)⊢M
(-@(5∘<))M
'*'@(=∘'a')⊢2 3⍴'banana'
T←2 2 2⍴⍳8
0@2⊢T
{⌽⍵}@1⊢M
100@(3 1)⊢M
