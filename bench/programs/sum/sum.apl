⍝ sum: the sum of ⍳N, an integer.
⍝ Checked by hand: the sum of 1..N is N(N+1)÷2; for N=100000000 that is 5000000050000000 (exact in 64 bits), which
⍝ C and NumPy print; for N=10 they print 55.
N←100000000 ⎕ArgInt 1
⎕←+/⍳N
