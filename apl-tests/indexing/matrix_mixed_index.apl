⍝ a scalar on one axis and a vector on the other gives a vector
⍝> 4 6
⍝> 2 8
m←3 3⍴⍳9
m[2;1 3]
m[1 3;2]
