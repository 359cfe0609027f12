⍝ (⍳n)∘.=⍳n is the identity matrix
⍝> 1 0 0
⍝> 0 1 0
⍝> 0 0 1
(⍳3)∘.=⍳3
