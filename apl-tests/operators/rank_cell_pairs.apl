⍝ Dyadic ⍤ with cells of both arguments below their ranks (prelude rank_cell_pairs): f on the pairs of cells at each
⍝ position of the common frame. Checked by hand on m = 3 4⍴⍳12 (rows 1-4, 5-8, 9-12): m (+⍤1) m doubles every item;
⍝ the dot products of each row with itself are 1+4+9+16, 25+36+49+64, 81+100+121+144; the rows 1 2 and 3 4 each with
⍝ the scalar 10 and 20 (⍤1 0); with a frame of run-time length n=2, the rows 'abc' and 'def' rotated by 1 and 2.
⍝>  2  4  6  8
⍝> 10 12 14 16
⍝> 18 20 22 24
⍝> 30 174 446
⍝> 1 2 10
⍝> 3 4 20
⍝> bca
⍝> fde
m←3 4⍴⍳12
m(+⍤1)m
m({+/⍺×⍵}⍤1)m
(2 2⍴1 2 3 4)({⍺,⍵}⍤1 0)10 20
n←2 ⎕ArgInt 1
(⍳n)({⍺⌽⍵}⍤0 1)(n,3)⍴'abcdef'
