⍝ A dfn that calls itself by the name it is assigned to means what ∇ means in it (Dyalog looks the name up when the
⍝ dfn runs, when the name is the dfn): tail calls run as loops, at any depth, and recursion on constants unfolds.
⍝ Worked by hand:
⍝ - count adds 1 per step down from ⍵ to 0: 0 count 100000 is 100000 (a loop of 100000 iterations, no stack).
⍝ - Euclid: 12 gcd 18 → 18 gcd 12 → 12 gcd 6 → 6 gcd 0 → 6; 35 and 64 are coprime: 1.
⍝ - fact on the constant 10 unfolds to 10×9×…×1 = 3628800.
⍝ - Collatz from 27 takes 111 steps to reach 1 (a value every table of the problem gives).
⍝ - A name assigned inside the dfn is its local, not the dfn: g's f is 10, so g 5 is 15.
⍝> 100000
⍝> 6
⍝> 1
⍝> 3628800
⍝> 111
⍝> 15
count←{⍵=0:⍺ ⋄ (⍺+1) count ⍵-1}
0 count 100000
gcd←{⍵=0:⍺ ⋄ ⍵ gcd ⍵|⍺}
12 gcd 18
35 gcd 64
fact←{⍵≤1:1 ⋄ ⍵×fact ⍵-1}
fact 10
steps←{
  ⍵=1:⍺
  0=2|⍵:(⍺+1) steps ⌊⍵÷2
  (⍺+1) steps 1+3×⍵
}
0 steps 27
g←{f←10 ⋄ f+⍵}
g 5
