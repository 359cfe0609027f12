⍝ an assignment inside a dfn makes a local name; the global of the same name is unchanged
⍝> 6
⍝> 100
a←100
f←{a←⍵ ⋄ a×2}
f 3
a
