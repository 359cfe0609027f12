⍝ dyadic ⊤ gives the digits; it keeps only as many digits as ⍺ has (2 2⊤7: 7 mod 4 = 3); a leading 0 radix keeps the rest
⍝> 1 0 1
⍝> 1 2 3
⍝> 1 1
⍝> 12 3
2 2 2⊤5
24 60 60⊤3723
2 2⊤7
0 10⊤123
