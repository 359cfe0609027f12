⍝ a matrix and a vector (not a scalar) cannot be added
⍝! RANK ERROR
(2 2⍴1)+1 2
