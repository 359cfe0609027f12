⍝ ⍵ in an inner dfn is the inner argument, not the outer one: 10+(2×5)
⍝> 20
f←{⍵+{⍵×2}5}
f 10
