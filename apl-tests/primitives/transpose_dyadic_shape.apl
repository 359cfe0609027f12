⍝ dyadic ⍉ shapes: for 3 1 2⍉A with ⍴A = 2 3 4, result axis 3 gets length 2, axis 1 gets 3, axis 2 gets 4
⍝ R[i;j;k] = A[k;i;j]; R[2;3;1] = A[1;2;3] = 0+4+3 = 7
⍝> 3 4 2
⍝> 3 2 4
⍝> 7
A←2 3 4⍴⍳24
⍴3 1 2⍉A
⍴2 1 3⍉A
(3 1 2⍉A)[2;3;1]
