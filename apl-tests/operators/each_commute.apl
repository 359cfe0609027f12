⍝ ⍨ inside ¨ and with a scalar: ⍵-⍺ for each pair
⍝> 3 3 3
⍝> 1 4 9
1 2 3-⍨¨4 5 6
×⍨¨1 2 3
