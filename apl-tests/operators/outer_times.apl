⍝ ∘.× builds a multiplication table
⍝> 1 2 3
⍝> 2 4 6
⍝> 3 6 9
1 2 3∘.×1 2 3
