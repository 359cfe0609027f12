⍝ ⌹ of a matrix whose size is known only at run time (⎕ArgInt, default 4): the Hilbert-like matrix
⍝ H[i;j] = 1÷i+j-1 plus n on the diagonal is well conditioned; H+.×⌹H is the identity to within 1E¯10, and solving
⍝ H x = H+.×⍳n gives back ⍳n (rounded to 6 decimals for printing: 1 2 3 4).
⍝> 1
⍝> 1 2 3 4
n←4 ⎕ArgInt 1
H←(÷¯1+(⍳n)∘.+⍳n)+n×(⍳n)∘.=⍳n
∧/,1E¯10>|(H+.×⌹H)-(⍳n)∘.=⍳n
(⌊0.5+1E6×(H+.×⍳n)⌹H)÷1E6
