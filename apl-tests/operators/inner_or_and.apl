⍝ ∨.∧ is the boolean matrix product: paths of length 2 in the graph 1→2→3
⍝> 0 0 1
⍝> 0 0 0
⍝> 0 0 0
G←3 3⍴0 1 0 0 0 1 0 0 0
G∨.∧G
