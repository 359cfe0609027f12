⍝ a named dfn used monadically several times
⍝> 1 4 9
⍝> 16
sq←{⍵×⍵}
sq 1 2 3
sq sq 2
