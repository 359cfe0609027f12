⍝ Constant folding computes with the same scalar functions as run time: comparisons and ⌊ ⌈ are tolerant (⎕CT 1e-14,
⍝ relative), whether the arguments are literals (folded at compile time) or computed (one←+/⍳1 is not folded).
⍝ 0.1+0.2 is 0.30000000000000004, tolerantly 0.3; 3.00000000000001 is within 1e-14×3 of 3, 3.0000000000001 is not;
⍝ 2.9999999999999 is 1e-13 below 3, beyond the tolerance, so its floor is 2 and the ceiling of 3.0000000000001 is 4.
⍝> 1 1
⍝> 1 1
⍝> 0 0
⍝> 2 2
⍝> 4 4
⍝> 1 1
one←+/⍳1
((0.1+0.2)=0.3),((one×0.1+0.2)=0.3)
(3=3.00000000000001),(3=one×3.00000000000001)
(3=3.0000000000001),(3=one×3.0000000000001)
(⌊2.9999999999999),(⌊one×2.9999999999999)
(⌈3.0000000000001),(⌈one×3.0000000000001)
(2○0),(2○one-1)
