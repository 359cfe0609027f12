⍝ ∧/ and ∨/ of booleans stay boolean; +/ and ×/ of booleans give integers
⍝> 1
⍝> 3
⍝> 0
⍝> 2
∧/1 1 1
+/1 1 1
×/1 0 1
(∨/1 0)+∧/1 1
