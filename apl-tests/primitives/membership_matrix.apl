⍝ dyadic ∊ keeps the shape of its left argument
⍝> 1 0
⍝> 0 1
(2 2⍴1 2 3 4)∊1 4
