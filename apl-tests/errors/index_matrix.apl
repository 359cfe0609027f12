⍝ a row index past the last row of a matrix
⍝! INDEX ERROR at 3:1
(2 2⍴1)[3;1]
