⍝ primes by counting divisors with an outer product of residues (the thesis's Primes benchmark, small N)
⍝ a number is prime when it has exactly 2 divisors in ⍳50; the thesis's form drops 1 and keeps numbers with 1 divisor in 2..50
⍝> 2 3 5 7 11 13 17 19 23 29 31 37 41 43 47
⍝> 2 3 5 7 11 13 17 19 23 29 31 37 41 43 47
⍝> 25
A←⍳50
(2=+⌿0=A∘.|A)/A
B←1↓⍳50
(1=+⌿0=B∘.|B)/B
C←⍳100
+/2=+⌿0=C∘.|C
