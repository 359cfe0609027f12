⍝ an anonymous dyadic dfn
⍝> 12
⍝> 7 9
3{⍺×⍵}4
1 2{⍺+2×⍵}3 3.5
