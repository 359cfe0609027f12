⍝ ⎕INT32AND/OR/XOR work bitwise on 32-bit two's complement integers: 12=1100b, 10=1010b
⍝> 8
⍝> 14
⍝> 6
⍝> 255
12 ⎕INT32AND 10
12 ⎕INT32OR 10
12 ⎕INT32XOR 10
¯1 ⎕INT32AND 255
