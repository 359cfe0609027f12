⍝ reducing a scalar or a one-element vector returns that item
⍝> 5
⍝> 7
+/5
-/,7
