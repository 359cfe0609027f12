⍝ dyadic ¨ pairs items; a scalar is extended
⍝> 41 52 63
⍝> 11 12 13
1 2 3{⍺+⍵×10}¨4 5 6
10{⍺+⍵}¨1 2 3
