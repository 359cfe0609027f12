⍝ ∘.≤ gives an upper triangular boolean matrix
⍝> 1 1 1 1
⍝> 0 1 1 1
⍝> 0 0 1 1
⍝> 0 0 0 1
(⍳4)∘.≤⍳4
