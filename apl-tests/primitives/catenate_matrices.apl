⍝ dyadic , on matrices joins along the last axis; a scalar is extended to a column
⍝> 1 2 5 6
⍝> 3 4 7 8
⍝> 1 2 0
⍝> 3 4 0
(2 2⍴⍳4),2 2⍴5 6 7 8
(2 2⍴⍳4),0
