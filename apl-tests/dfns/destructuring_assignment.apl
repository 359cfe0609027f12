⍝ Destructuring assignment (a b c)←v: one name per item of a strand, or of a vector; a scalar goes to every name.
⍝ In dfns too, and as the loop state of ⍣ and of a recursive dfn: a strand of arrays of different ranks and types.
⍝ Hand-worked: the Mandelbrot-like step on z = 0.5 gives (0, 0.5, 1.5) then (¯0.25, 0, 2.5) (n counts from z).
⍝> 7
⍝> ab
⍝> 1 2 3
⍝> 11 12 13
⍝> 10
⍝> ¯0.25 ¯0.25
⍝> ¯0.25 ¯0.25
⍝> 2.5 2.5
⍝> 2.5 2.5
⍝> 4 4
⍝> 4 4
⍝> 1 2 3
⍝> 9
⍝> 8 16 24
⍝> 5
(a b c)←1 2 3
a+b×c
(p q)←'ab' (⍳3)
p
q
f←{(r acc)←⍵ ⋄ r+acc}
f 10 (⍳3)
(s t)←5
s+t
z←2 2⍴0.5
step←{(zr zi n)←⍵ ⋄ zr2←(zr×zr)-zi×zi ⋄ zi2←2×zr×zi ⋄ zr2 zi2 (n+1)}
(zr zi n)←(step⍣2) z z z
zr
n
h←{(m v s)←⍵ ⋄ (m+1) v (s+≢v)}
(x y w)←(h⍣3) (2 2⍴1) (1 2 3) 0
x
y
w
rec←{(v k)←⍵ ⋄ k=0: v ⋄ ∇ (v×2) (k-1)}
rec (1 2 3) 3
(u v)←⍳2
u+v+v
