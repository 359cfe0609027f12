⍝ a dfn can read a name defined before it at top level
⍝> 11 12 13
n←10
f←{⍵+n}
f 1 2 3
