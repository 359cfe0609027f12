⍝ reducing the rows of a matrix with no columns gives identities
⍝> 0 0
⍝> 1 1 1
+/2 0⍴0
×/3 0⍴0
