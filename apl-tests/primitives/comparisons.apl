⍝ the six comparison functions on integers give booleans
⍝> 1 0 0
⍝> 1 1 0
⍝> 0 1 0
⍝> 0 1 1
⍝> 0 0 1
⍝> 1 0 1
1 2 3<2 2 2
1 2 3≤2 2 2
1 2 3=2 2 2
1 2 3≥2 2 2
1 2 3>2 2 2
1 2 3≠2 2 2
