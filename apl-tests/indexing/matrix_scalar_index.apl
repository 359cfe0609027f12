⍝ A[i;j] selects one item of a matrix (row-major layout: m[2;3] = 3+3)
⍝> 6
⍝> 7
m←3 3⍴⍳9
m[2;3]
m[3;1]
