⍝ ⊣ returns the left argument, ⊢ the right; monadically both are the identity
⍝> 1 2
⍝> 3 4
⍝> 5
⍝> 5
1 2⊣3 4
1 2⊢3 4
⊢5
⊣5
