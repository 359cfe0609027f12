⍝ an inner product with dfn operands behaves like +.×
⍝> 32
⍝> 19 22
⍝> 43 50
1 2 3{⍺+⍵}.{⍺×⍵}4 5 6
(2 2⍴1 2 3 4){⍺+⍵}.{⍺×⍵}2 2⍴5 6 7 8
