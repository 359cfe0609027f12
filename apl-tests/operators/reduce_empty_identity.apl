⍝ reducing an empty vector gives the identity item of the function
⍝> 0
⍝> 1
⍝> 1
⍝> 0
⍝> 0
+/⍳0
×/⍳0
∧/⍬
∨/⍬
-/⍳0
