⍝ ∘ binds an array to a dyadic function on either side
⍝> 2 4 6
⍝> 2 4 6
⍝> 4
⍝> 0.5 1
2∘×1 2 3
(×∘2)1 2 3
-∘1⊢5
(÷∘2)1 2
