⍝ f ⎕BENCH n is f⍣n (the thesis compiler's timing helper) that also reports the time of the n applications on
⍝ standard error; standard output is exactly what ⍣ would give. 10+1+1+1+1+1 = 15; 2×2×2×1 = 8; three rotations
⍝ of ⍳5 by one; the loop runs even for a count known at compile time (not unrolled); 0 iterations leave ⍵; a
⍝ boolean count is a count (not ⍣'s conditional form): 0.5×2 = 1. ⎕NOW reads the clock on every backend.
⍝> 15
⍝> 8
⍝> 4 5 1 2 3
⍝> 7
⍝> 1
⍝> 1
{⍵+1}⎕BENCH 5⊢10
2 {⍺×⍵} ⎕BENCH 3 ⊢ 1
{1⌽⍵}⎕BENCH 3⊢⍳5
{⍵}⎕BENCH 0⊢7
{⍵×2}⎕BENCH (1=1)⊢0.5
⎕NOW>0
