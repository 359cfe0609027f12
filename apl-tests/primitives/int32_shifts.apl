⍝ x ⎕INT32SHL n shifts x left by n bits, x ⎕INT32SHR n shifts right logically (zero fill), in 32 bits
⍝ 1 shifted left 31 is the sign bit: ¯2147483648; ¯1 (all ones) shifted right 28 logically is 15
⍝> 16
⍝> 16
⍝> ¯2147483648
⍝> 15
1 ⎕INT32SHL 4
256 ⎕INT32SHR 4
1 ⎕INT32SHL 31
¯1 ⎕INT32SHR 28
