⍝ dyadic * (power) on ints, negative bases and negative and fractional exponents
⍝ 2*0.5 = 1.41421356237... ; 0*0 is 1
⍝> 1024
⍝> ¯8
⍝> 0.25
⍝> 1.414213562
⍝> 3
⍝> 1
2*10
¯2*3
2*¯2
2*0.5
9*0.5
0*0
