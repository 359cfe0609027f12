⍝ monadic ⍉ on rank 3 reverses the axes: shape 2 3 4 becomes 4 3 2, and R[i;j;k]=A[k;j;i]
⍝ A[i;j;k] = (12×i-1)+(4×j-1)+k, so R[4;1;2] = A[2;1;4] = 12+0+4 = 16
⍝> 4 3 2
⍝> 16
A←2 3 4⍴⍳24
⍴⍉A
(⍉A)[4;1;2]
