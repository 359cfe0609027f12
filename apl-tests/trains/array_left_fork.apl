⍝ an (A g h) fork: the left tine is an array
⍝> 6
⍝> 2 4 6
⍝> 9 8 7
(1+⊢)5
(2×⊢)1 2 3
(10-⊢)1 2 3
