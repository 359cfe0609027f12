⍝ Dfns inside a traditional function may span lines and keep ∇ as their self-reference.
∇ R←Factorial N
  fact←{
    ⍵≤1:1
    ⍵×∇ ⍵-1
  }
  R←fact N
∇
Factorial 5
