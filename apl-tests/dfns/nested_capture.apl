⍝ an inner dfn sees the locals of the outer dfn (lexical scope)
⍝> 11 12 13
f←{k←⍵ ⋄ {⍵+k}¨1 2 3}
f 10
