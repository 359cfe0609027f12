⍝ a fork that compares each item with the mean (2.5): the items above the mean
⍝> 0 0 1 1
(⊢>+/÷≢)1 2 3 4
