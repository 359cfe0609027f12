⍝ primes: the primes up to N by counting divisors in the outer-product residue table A∘.|A (thesis §3.5); prints the
⍝ number of primes and their sum.
⍝ Checked by hand: for N=10 the primes are 2 3 5 7, so it prints 4 17; for N=10000 there are 1229 primes (the value
⍝ of π(10⁴) in any table), summing to 5736396. C and NumPy print the same at all sizes.
N←10000 ⎕ArgInt 1
A←⍳N
P←(2=+⌿0=A∘.|A)/A
⎕←(⍴P),+/P
