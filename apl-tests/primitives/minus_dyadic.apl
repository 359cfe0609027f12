⍝ dyadic - with scalar extension
⍝> 9 8 7
⍝> ¯9 ¯8 ¯7
⍝> ¯2
10-1 2 3
1 2 3-10
3-5
