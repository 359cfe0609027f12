⍝ +/ and ×/ on vectors give scalars
⍝> 10
⍝> 120
⍝> 0.75
⍝> 3
+/1 2 3 4
×/1 2 3 4 5
+/0.5 0.25
+/1 0 1 1
