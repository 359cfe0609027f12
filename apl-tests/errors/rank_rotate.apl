⍝ the left argument of ⌽ on a vector must be a scalar
⍝! RANK ERROR
(2 2⍴1)⌽1 2
