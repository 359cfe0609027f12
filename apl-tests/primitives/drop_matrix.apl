⍝ dyadic ↓ on a matrix drops along both axes
⍝> 5 6
⍝> 8 9
⍝> 1 2
⍝> 4 5
⍝> 4 5 6
⍝> 7 8 9
1 1↓3 3⍴⍳9
¯1 ¯1↓3 3⍴⍳9
1 0↓3 3⍴⍳9
