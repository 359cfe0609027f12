⍝ matmul: the matrix product A+.×B of two M×M matrices, A[i;j] = 0.1×(i+2j) mod 7 and B[i;j] = 0.01×(3i+j) mod 11;
⍝ prints the sum of all elements of the product.
⍝ Checked by hand: for M=2, A = 0.1×(3 5)(4 6) by rows and B = 0.01×(4 5)(7 8); the sum of A+.×B is the column sums
⍝ of A (0.7 1.1) times the row sums of B (0.09 0.15) = 0.063+0.165 = 0.228, which C and NumPy print for M=2.
M←512 ⎕ArgInt 1
I←⍳M
A←0.1×7|I∘.+2×I
B←0.01×11|(3×I)∘.+I
⎕←+/,A+.×B
