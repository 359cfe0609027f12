⍝ indexed assignment of one item of a matrix
⍝> 1 2 3
⍝> 4 0 6
⍝> 7 8 9
m←3 3⍴⍳9
m[2;2]←0
m
