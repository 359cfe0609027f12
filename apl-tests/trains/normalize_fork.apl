⍝ (⊢÷+/) divides a vector by its sum
⍝> 0.25 0.25 0.5
(⊢÷+/)1 1 2
