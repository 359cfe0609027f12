⍝ a row index past the last row of a matrix
⍝! INDEX ERROR
(2 2⍴1)[3;1]
