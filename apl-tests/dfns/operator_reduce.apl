⍝ an operator that reduces with its operand
⍝> 6
⍝> 120
red←{⍺⍺/⍵}
+red 1 2 3
×red ⍳5
