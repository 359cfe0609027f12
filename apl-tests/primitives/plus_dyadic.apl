⍝ dyadic + elementwise and with scalar extension on either side
⍝> 5 7 9
⍝> 11 12 13
⍝> 11 12 13
1 2 3+4 5 6
10+1 2 3
1 2 3+10
