⍝ the ⎕INT32 functions extend scalars like other scalar functions: 1 2 3 xor 3 is 2 1 0
⍝> 2 1 0
⍝> 1 2 4 8
1 2 3 ⎕INT32XOR 3
1 ⎕INT32SHL 0 1 2 3
