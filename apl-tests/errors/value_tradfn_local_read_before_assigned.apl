⍝ T is local to G: the global T is hidden, and G reads T before giving it a value.
⍝! VALUE ERROR at 5:5
T←1
∇ R←G X;T
  R←T+X
∇
G 2
