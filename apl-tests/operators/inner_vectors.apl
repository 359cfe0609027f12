⍝ +.× of two vectors is the dot product 4+10+18; ⌈.+ is max of sums 5 7 9
⍝> 32
⍝> 9
1 2 3+.×4 5 6
1 2 3⌈.+4 5 6
