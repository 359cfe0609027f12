⍝ doubles print with up to 10 significant digits; integral doubles print without a point
⍝> 0.3
⍝> 5
⍝> 1000
⍝> 0.015
⍝> 1234.5678
0.1+0.2
2.5×2
1E3
1.5E¯2
1234.5678
