⍝ a five-train ⊢-+/÷≢ is ⊢ - (+/÷≢): deviation from the mean
⍝> ¯1 0 1
⍝> ¯1.5 ¯0.5 0.5 1.5
(⊢-+/÷≢)1 2 3
(⊢-+/÷≢)1 2 3 4
