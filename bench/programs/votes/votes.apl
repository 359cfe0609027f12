⍝ votes: N voters each answer 8 yes/no questions; voter i says yes to question j when (7i+13j+ij) mod 11 < 5. The
⍝ result combines the statistics of the yes counts c (0..8 per voter): Σc² + 3×(voters with c≥5) + the largest c.
⍝ c is an array read three times: a sum of 8 booleans, stored in one byte a voter (narrow storage, issue #15).
⍝ Checked by hand: voter 1's residues for j=1..8 are 10 2 5 8 0 3 6 9, so c=3 and N=1 gives 9+0+3 = 12; voter 2's are
⍝ 7 0 4 8 1 5 9 2, so c=4 and N=2 gives 9+16+0+4 = 29. votes.c and votes.py print the same for every N tried.
N←10000000 ⎕ArgInt 1
i←⍳N
j←⍳8
c←+/5>11|((7×i)∘.+13×j)+i∘.×j
⎕←(+/c×c)+(3×+/c≥5)+⌈/c
