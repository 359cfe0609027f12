⍝ ⎕INT32NOT is bitwise complement: ~x = ¯1-x in two's complement
⍝> ¯1
⍝> ¯6
⍝> 0
⎕INT32NOT 0
⎕INT32NOT 5
⎕INT32NOT ¯1
