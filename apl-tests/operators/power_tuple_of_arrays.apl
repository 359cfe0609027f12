⍝ ⍣, guards and tail recursion over a state that is a strand of arrays (issue #14, item 1), on every backend: each
⍝ array of the state has a block of its own (double-buffered when the step keeps its shape, a new block per step
⍝ when it grows), scalars are variables, and every component of the next state is computed from the current one.
⍝ s⍣3 on (1 2) 10: (1 2 10) 11, (1 2 10 11) 12, (1 2 10 11 12) 13: the vector grows, the scalar counts.
⍝> 1 2 10 11 12
⍝> 13
⍝ t⍣5 on (1 1) (1 2) 1 (next: w, v+w, 2×k): (1 2)(2 3)2, (2 3)(3 5)4, (3 5)(5 8)8, (5 8)(8 13)16, (8 13)(13 21)32.
⍝> 8 13 13 21 32
⍝ u⍣{(2⊃⍺)<0} on (⍳4) 3 reverses the vector and counts down until the count is negative: 4 steps (3 2 1 0 ¯1),
⍝ an even number of reversals.
⍝> 1 2 3 4 ¯1
⍝ Tail recursion with a vector in its state: (1 2) 3 → (1 2 6) 2 → (1 2 6 4) 1 → (1 2 6 4 2) 0, which returns v.
⍝> 1 2 6 4 2
⍝ A matrix and a scalar: m+1 and s+2×(sum of m) until s>100: s goes 3 23 51 87 131 as m goes from 1 2 3 4 to 5 6 7 8.
⍝> 5 6 7 8
⍝> 131
⍝ A guard that returns the state unchanged inside ⍣ (a conditional over a strand of arrays): +/b is 4, 8, 16 after
⍝ 0, 1, 2 steps, so all three steps double b and lengthen a.
⍝> 1 1 1 1
⍝> 12 20
⍝ The same guard taken: +/b is 32 > 20 on the first step, so ⍣2 leaves the state as it is.
⍝> 1
⍝> 16 16
⍝ A state with a boolean, a char and an int matrix: each keeps its type.
⍝> 0 1 0
⍝> cba
⍝> 3
⍝ s⍣3 from an empty vector: (,0) 1, (0 1) 2, (0 1 2) 3.
⍝> 0 1 2
⍝> 3
⍝ Items moved one by one from the first vector to the second until the first is empty (powerUntil, both change
⍝ length every step).
⍝> 1 2 3 4
⍝ A matrix transposed three times changes shape every step: 2 3, 3 2, 2 3, 3 2.
⍝> 3 2
⍝> 3
n←3 ⎕ArgInt 1
s←{(v k)←⍵ ⋄ (v,k) (k+1)}
(a b)←(s⍣3)(⍳2) 10
⎕←a
⎕←b
t←{(v w k)←⍵ ⋄ w (v+w) (k×2)}
(p q r)←(t⍣5)(1 1) (1 2) 1
⎕←p,q,r
u←{(v k)←⍵ ⋄ (⌽v) (k-1)}
(x y)←u⍣{(2⊃⍺)<0}⊢(⍳4) n
⎕←x,y
f←{(v k)←⍵ ⋄ k=0:v ⋄ ∇ (v,k×2) (k-1)}
⎕←f (⍳2) n
g←{(m s)←⍵ ⋄ s>100:m s ⋄ ∇ (m+1) (s+2×+/,m)}
(mm ss)←g (2 2⍴⍳4) n
⎕←,mm
⎕←ss
h←{(a b)←⍵ ⋄ (+/b)>20:a b ⋄ (a,1) (b×2)}
(c d)←(h⍣3)(⍳1) (1.5 2.5)
⎕←c
⎕←d
(c d)←(h⍣2)(⍳1) (16 16)
⎕←c
⎕←d
w←{(bits text m)←⍵ ⋄ (~bits) (⌽text) (m+1)}
(e f2 g2)←(w⍣3)(1 0 1) 'abc' (2 2⍴0)
⎕←e
⎕←f2
⎕←⊃g2
(a b)←(s⍣3)(⍳0) 0
⎕←a
⎕←b
mv←{(v w)←⍵ ⋄ (1↓v) (w,⊃v)}
(x y)←mv⍣{0=≢1⊃⍺}⊢(⍳4) (⍳0)
⎕←y
tr←{(m k)←⍵ ⋄ (⍉m) (k+1)}
(mm kk)←(tr⍣3)(2 3⍴⍳6) 0
⎕←⍴mm
⎕←kk
