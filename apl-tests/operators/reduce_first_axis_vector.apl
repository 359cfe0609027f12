⍝ ⌿ on a vector is the same as /
⍝> 10
⍝> ¯2
+⌿1 2 3 4
-⌿1 2 3 4
