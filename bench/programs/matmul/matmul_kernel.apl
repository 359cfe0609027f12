⍝ matmul's product alone, for bench/run's "Kernels alone" (beside NumPy's `a @ b` timed inside Python): the product
⍝ of matmul.apl's A with a matrix, R times under ⎕BENCH, which reports on standard error how long the R products took
⍝ (the matrices are made before the clock starts). Each product multiplies the one before, starting from B
⍝ ({A+.×⍵}⍣R ⊢ B), so that none of them can be left out; A's row sums are at most 512×0.6 ≈ 307 and B's elements
⍝ at most 0.1, so 20 products stay below 0.1×307*20 ≈ 5E48, far from the 1.8E308 of overflow (for M = 512 the sum
⍝ printed is 7.003782189E47).
⍝ Usage: matmul_kernel [M] [R]   (default M = 512, R = 20); prints the sum of the last product's elements.
M←512 ⎕ArgInt 1
R←20 ⎕ArgInt 2
I←⍳M
A←0.1×7|I∘.+2×I
B←0.01×11|(3×I)∘.+I
P←{A+.×⍵}⎕BENCH R ⊢ B
⎕←+/,P
