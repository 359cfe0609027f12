⍝ a dfn that refers to a name that is never defined
⍝! VALUE ERROR
f←{⍵+y}
f 1
