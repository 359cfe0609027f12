⍝ dyadic × on ints and doubles
⍝> 10 18 28
⍝> 0.25
⍝> ¯6
2 3 4×5 6 7
0.5×0.5
¯2×3
