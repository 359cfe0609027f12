⍝ matmul (tuning): the matrix product A+.×B of an M×K and a K×N matrix, A[i;k] = 0.1×(i+2k) mod 7 and
⍝ B[k;j] = 0.01×(3k+j) mod 11; prints the sum of all elements of the product. M, K and N are the arguments, so that
⍝ one executable serves tall-skinny, square and short-wide shapes, whose best parallel version differs (the rows in
⍝ parallel, or the columns of each row).
⍝ Checked by hand: for M=1 K=2 N=3, A = 0.3 0.5 and B = 0.04 0.05 0.06 / 0.07 0.08 0.09 by rows; the product is
⍝ 0.3×B[1;]+0.5×B[2;] = 0.047 0.055 0.063, whose sum is 0.165 (`aplc run matmul.apl -- 1 2 3`). For M=K=N=2 it is
⍝ 0.228, as bench/programs/matmul prints for M=2.
M←400 ⎕ArgInt 1
K←400 ⎕ArgInt 2
N←400 ⎕ArgInt 3
A←0.1×7|(⍳M)∘.+2×⍳K
B←0.01×11|(3×⍳K)∘.+⍳N
⎕←+/,A+.×B
