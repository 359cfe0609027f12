⍝ ⎕← inside a dfn prints and does not end the dfn (it is an assignment); the final result prints at top level
⍝> 3
⍝> 2
⍝> 1
⍝> 0
count←{⍵=0:0 ⋄ ⎕←⍵ ⋄ ∇ ⍵-1}
count 3
