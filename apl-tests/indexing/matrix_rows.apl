⍝ a vector of row indices with an elided column axis gives a matrix
⍝> 4 5 6
⍝> 7 8 9
⍝> 2 3
m←3 3⍴⍳9
m[2 3;]
⍴m[2 3;]
