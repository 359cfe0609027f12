⍝ ⍤ with cells of rank 1 or more below the argument's (prelude rank_cells), and dyadic ⍤ with one argument whole.
⍝ Checked by hand on m = 3 4⍴⍳12 (rows 1-4, 5-8, 9-12) and a = 2 3 4⍴⍳24:
⍝ +/⍤1 m: the row sums 10 26 42. ⌽⍤1 m: each row reversed. {⍵,+/⍵}⍤1 m: each row with its sum (results of 5
⍝ items make the rows). +/⍤1 a: the 2×3 row sums 10 26 42 / 58 74 90. {+/,⍵}⍤2 a: the sums of the two 3×4 planes,
⍝ 78 (1..12) and 222 (13..24). ⍉⍤2 a: each plane transposed (2×4×3). {⍵[1]}⍤1 m: the first column 1 5 9.
⍝ Negative rank ¯1 on a: its major cells are the planes, as ⍤2. A frame of run-time length (n=3 rows of 1 2, 3 4,
⍝ 5 6): 3 7 11. An empty frame: {⍵,⍵}⍤1 of a 0×3 matrix is 0×6 (f runs on a fill cell for the shape).
⍝ Dyadic: 10 20 30 40 (+⍤1) m adds the vector to each row; m (-⍤1) 1 1 1 1 subtracts 1 from each row; ×⍤0 of two
⍝ vectors is × item by item; 'abc' ({⍺,⍵}⍤1) of the rows 'xy' 'zw' catenates 'abc' before each.
⍝> 10 26 42
⍝>  4  3  2 1
⍝>  8  7  6 5
⍝> 12 11 10 9
⍝> 1  2  3  4 10
⍝> 5  6  7  8 26
⍝> 9 10 11 12 42
⍝> 10 26 42
⍝> 58 74 90
⍝> 78 222
⍝> 2 4 3
⍝>  1  5  9
⍝>  2  6 10
⍝>  3  7 11
⍝>  4  8 12
⍝> 
⍝> 13 17 21
⍝> 14 18 22
⍝> 15 19 23
⍝> 16 20 24
⍝> 1 5 9
⍝> 78 222
⍝> 3 7 11
⍝> 0 6
⍝> 11 22 33 44
⍝> 15 26 37 48
⍝> 19 30 41 52
⍝> 0 1  2  3
⍝> 4 5  6  7
⍝> 8 9 10 11
⍝> 4 10 18
⍝> abcxy
⍝> abczw
m←3 4⍴⍳12
(+/⍤1)m
({⌽⍵}⍤1)m
({⍵,+/⍵}⍤1)m
a←2 3 4⍴⍳24
(+/⍤1)a
({+/,⍵}⍤2)a
⍴(⍉⍤2)a
(⍉⍤2)a
({⍵[1]}⍤1)m
({+/,⍵}⍤¯1)a
n←3 ⎕ArgInt 1
(+/⍤1)(n,2)⍴⍳6
⍴({⍵,⍵}⍤1)0 3⍴0
10 20 30 40(+⍤1)m
m(-⍤1)1 1 1 1
1 2 3(×⍤0)4 5 6
'abc'({⍺,⍵}⍤1)2 2⍴'xyzw'
