⍝ The value of an indexed assignment is its right argument, not the whole updated array (Dyalog): y gets 9, and a
⍝ chain of indexed assignments sets every target; the promotion of x to floating point does not reach y.
⍝> 9
⍝> 9 2 3
⍝> 5 5 3
⍝> 7
⍝> 1 7 3
⍝> 4
⍝> 4 2.5
x←1 2 3
y←x[1]←9
y
x
x[1]←x[2]←5
x
x←1 2 3
⎕←x[2]←7
x
z←1.5 2.5
w←z[1]←4
w
z
