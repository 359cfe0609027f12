⍝ the left argument of reshape must be a vector or a scalar
⍝! RANK ERROR
(2 2⍴2)⍴5
