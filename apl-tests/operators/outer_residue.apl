⍝ ∘.| with i|j in row i, column j; a zero marks a divisor
⍝> 0 0 0 0
⍝> 1 0 1 0
⍝> 1 2 0 1
⍝> 1 2 3 0
(⍳4)∘.|⍳4
