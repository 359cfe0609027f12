⍝ a named dyadic dfn as the operand of reduce and scan
⍝> 10
⍝> 1 3 6 10
plus←{⍺+⍵}
plus/1 2 3 4
plus\1 2 3 4
