⍝ ⌹: matrix inverse and matrix divide (src/elab/linear_algebra.rs; Gauss-Jordan elimination with partial pivoting
⍝ in the prelude). Checked by hand:
⍝ A = [1 2 3; 0 1 4; 5 6 0] has determinant 1 and the integer inverse [¯24 18 5; 20 ¯15 ¯4; ¯5 4 1]; its rows
⍝ times that inverse give the identity (A+.×⌹A, to within 1E¯10 in doubles).
⍝ A+.×1 1 1 is 6 5 11, so 6 5 11⌹A is 1 1 1; the columns 6 5 11 and 12 10 22 give 1 1 1 and 2 2 2.
⍝ The least-squares line through (1,2.1) (2,3.9) (3,6.2) (4,7.8) (5,10.1): mean x 3, mean y 6.02, slope
⍝ Σ(x-3)(y-6.02)÷Σ(x-3)² = 19.9÷10 = 1.99, intercept 6.02-3×1.99 = 0.05. (⌹X)+.×Y, the left inverse, gives it too.
⍝ ⌹ of a vector v is v÷+/v×v: 1 2 2 over 9. ⌹4 is 0.25, 6⌹2 is 3.
⍝> ¯24  18  5
⍝>  20 ¯15 ¯4
⍝>  ¯5   4  1
⍝> 1
⍝> 1 1 1
⍝> 1 2
⍝> 1 2
⍝> 1 2
⍝> 0.05 1.99
⍝> 0.05 1.99
⍝> 0.1111111111 0.2222222222 0.2222222222
⍝> 0.25
⍝> 3
A←3 3⍴1 2 3 0 1 4 5 6 0
⌹A
∧/,1E¯10>|(A+.×⌹A)-(⍳3)∘.=⍳3
6 5 11⌹A
(3 2⍴6 12 5 10 11 22)⌹A
X←5 2⍴1 1 1 2 1 3 1 4 1 5
Y←2.1 3.9 6.2 7.8 10.1
Y⌹X
(⌹X)+.×Y
⌹1 2 2
⌹4
6⌹2
