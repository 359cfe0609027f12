(a b c)←1 2 3
f←{(r acc)←⍵ ⋄ r+acc}
x (f g)←1
