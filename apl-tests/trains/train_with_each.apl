⍝ a train applied to each item with ¨ (scalar results)
⍝> 3 5 7
(1+2×⊢)¨1 2 3
