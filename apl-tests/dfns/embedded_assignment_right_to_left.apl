⍝ A name assigned inside a statement is defined for what stands to its left (APL evaluates right to left), in the
⍝ main program and in dfns, also inside nested parentheses, strands and indexing.
⍝> 9
⍝> 6 5
⍝> 8
⍝> 2 4 6 1 2 3
⍝> 23
⍝> 20
⍝> 11
⍝> 8 4
⍝> 12
x ← y × (y ← 3)
x
(u+1) (u ← 5)
f←{a ← b + (b ← ⍵) ⋄ a}
f 4
(w×2) , (w ← ⍳3)
(v×10) + 1 + (v ← 2)
k ← 1
k + (k ← 10)
p[2] + (p ← 5 6 7)[1]
g←{(s×2) (s←⍵+1)}
g 3
h←{⍺ × t + (t ← ⍵)}
2 h 3
