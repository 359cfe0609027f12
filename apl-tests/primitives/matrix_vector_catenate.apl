⍝ catenating a matrix and a vector: , adds a column, ⍪ adds a row
⍝> 1 2 7
⍝> 3 4 8
⍝> 1 2
⍝> 3 4
⍝> 7 8
(2 2⍴⍳4),7 8
(2 2⍴⍳4)⍪7 8
