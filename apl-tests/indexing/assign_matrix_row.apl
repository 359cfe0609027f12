⍝ indexed assignment of a whole row with an elided axis
⍝> 1 2 3
⍝> 0 0 0
⍝> 7 8 9
m←3 3⍴⍳9
m[2;]←0 0 0
m
