⍝ ⊤ of a negative number: ¯1 in three binary digits is 7 mod 8 = 1 1 1; ¯6 is 2 mod 8 = 0 1 0
⍝> 1 1 1
⍝> 0 1 0
2 2 2⊤¯1
2 2 2⊤¯6
