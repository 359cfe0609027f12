⍝ An indexed assignment to a copy of an array that is still used later must copy: B[1]←7 changes B, not A.
⍝ The update of A itself (A[2]←10, A dies there) is in place. A is 1 10 3 4 5, B is 7 10 3 4 5.
⍝> 1 10 3 4 5
⍝> 7 10 3 4 5
⍝# mem copies 1
⍝# mem allocs 2
A←⍳5
A[2]←10
B←A
B[1]←7
A
B
