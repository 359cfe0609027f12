⍝ Packed boolean inner products whose inner length k is known only at run time (⎕ArgInt, default 70: three words,
⍝ the last one 6 bits long). A's rows are all ones; B is (k,2)⍴1 0, so its first column is all ones and its second
⍝ all zeros: 70 shared positions (even) with the first, none with the second; a row of A equals the first column
⍝ and differs from the second everywhere.
⍝> 70 0
⍝> 70 0
⍝> 0 0
⍝> 0 0
⍝> 1 0
⍝> 1 0
⍝> 1 0
⍝> 1 0
⍝> 0 1
⍝> 0 1
⍝> 1 1 1
k←70 ⎕ArgInt 1
A←(2,k)⍴1
B←(k,2)⍴1 0
A+.∧B
A≠.∧B
A∨.∧B
A∧.=B
A∨.≠B
⍝ Against the int products (1×A is not packed), on pseudo-random bits.
M←1=?4 k⍴2
N←1=?k 5⍴2
c←(1×M)+.×1×N
((M≠.∧N)≡2|c),((M∨.∧N)≡0<c),(M+.∧N)≡c
