⍝ vectors on both axes select a submatrix
⍝> 2 3
⍝> 8 9
⍝> 9 7
⍝> 3 1
m←3 3⍴⍳9
m[1 3;2 3]
m[3 1;3 1]
