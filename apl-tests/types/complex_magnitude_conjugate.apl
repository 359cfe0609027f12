⍝ |z is the modulus, monadic + the conjugate
⍝> 5
⍝> 2J¯3
⍝> 13
|3J4
+2J3
2J3×+2J3
