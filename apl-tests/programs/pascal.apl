⍝ Pascal's triangle as a binomial table: row ⍺, column ⍵ holds ⍺!⍵ (⍵ choose ⍺) for 0..4
⍝> 1 1 1 1 1
⍝> 0 1 2 3 4
⍝> 0 0 1 3 6
⍝> 0 0 0 1 4
⍝> 0 0 0 0 1
⍝> 1 4 6 4 1
⍝> 16
(0,⍳4)∘.!0,⍳4
(0,⍳4)!4
+/(0,⍳4)!4
