⍝ reals promote to complex when mixed with complex numbers
⍝> 1J1
⍝> 2J2
⍝> 2J1 3J2
⍝> 3J3
1+0J1
2×1J1
1J1 2J2+1
+/1J1 2J2
