⍝ a local name used before it is assigned in the same dfn
⍝! VALUE ERROR
f←{b+1 ⋄ b←⍵}
f 1
