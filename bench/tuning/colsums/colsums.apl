⍝ colsums (tuning): the column sums +⌿m of an R×C matrix m[i;j] = 0.001×(i+3j) mod 7; prints the sum of the column
⍝ sums, the first and the last. R and C are the arguments: many short columns want the columns on the threads, a
⍝ few long columns want each column's reduction on the threads.
⍝ Checked by hand: for R=2 C=3, m is 0.001×(4 0 3 / 5 1 4) by rows, so the column sums are 0.009 0.001 0.007 and it
⍝ prints 0.017 0.009 0.007 (`aplc run colsums.apl -- 2 3`).
R←1000 ⎕ArgInt 1
C←1000 ⎕ArgInt 2
m←0.001×7|(⍳R)∘.+3×⍳C
s←+⌿m
⎕←(+/s),s[1],s[C]
