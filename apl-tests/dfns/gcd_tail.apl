⍝ tail-recursive Euclid: 12 gcd 18 → 18 gcd 12 → 12 gcd 6 → 6 gcd 0 → 6
⍝> 6
⍝> 12
⍝> 1
gcd←{⍵=0:⍺ ⋄ ⍵ ∇ ⍵|⍺}
12 gcd 18
48 gcd 36
17 gcd 5
