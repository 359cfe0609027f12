⍝ a dyadic dfn with a guard: the larger argument
⍝> 5
⍝> 7
max←{⍺>⍵:⍺ ⋄ ⍵}
3 max 5
7 max 2
