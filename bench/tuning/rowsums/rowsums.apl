⍝ rowsums (tuning): the row sums +/m of an R×C matrix m[i;j] = 0.001×(i+3j) mod 7; prints the sum of the row sums,
⍝ the first and the last. R and C are the arguments: many short rows want the rows on the threads (each row summed
⍝ on one), a few long rows want each row's reduction on the threads.
⍝ Checked by hand: for R=2 C=3, row 1 is 0.001×(4 0 3) (sum 0.007) and row 2 is 0.001×(5 1 4) (sum 0.010), so it
⍝ prints 0.017 0.007 0.01 (`aplc run rowsums.apl -- 2 3`).
R←1000 ⎕ArgInt 1
C←1000 ⎕ArgInt 2
m←0.001×7|(⍳R)∘.+3×⍳C
s←+/m
⎕←(+/s),s[1],s[R]
