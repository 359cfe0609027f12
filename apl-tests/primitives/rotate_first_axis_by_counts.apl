⍝ ⊖ (and ⌽[1]) of a matrix by a vector of counts, one per column. Checked by hand on M←3 3⍴⍳9: column 1 (1 4 7)
⍝ rotated by 1 is 4 7 1, column 2 unchanged, column 3 (3 6 9) by 2 is 9 3 6; on 3 4⍴⍳12 by ¯1 1 0 2: 9 1 5,
⍝ 6 10 2, 3 7 11, 12 4 8; by ⍳n (n is 3 when running): 4 7 1, 8 2 5, 3 6 9.
⍝> 4 2 9
⍝> 7 5 3
⍝> 1 8 6
⍝> 4 2 9
⍝> 7 5 3
⍝> 1 8 6
⍝> 9  6  3 12
⍝> 1 10  7  4
⍝> 5  2 11  8
⍝> 4 8 3
⍝> 7 2 6
⍝> 1 5 9
M←3 3⍴⍳9
1 0 2⊖M
1 0 2⌽[1]M
¯1 1 0 2⊖3 4⍴⍳12
n←3 ⎕ArgInt 1
(⍳n)⊖n n⍴⍳n×n
