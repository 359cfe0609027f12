⍝ lookup: N keys k (the distinct residues 7919i mod 1000003) sorted by ⍋, and N queries q (104729i mod 1000003)
⍝ looked up among them by ⍳ (the position of each, N+1 when absent) and ∊. Prints the middle sorted key, the sum of
⍝ the positions and the number of queries found.
⍝ Checked by hand for N=3: k is 7919 15838 23757, q is 104729 209458 314187; the middle key is 15838, no query is
⍝ a key, so the positions are 4 4 4 (sum 12) and 0 are found. lookup.c and lookup.py print the same for every N
⍝ tried (the full size gives 500000 500001744641 999998). The sum of the positions passes 2^31, where Dyalog
⍝ (and aplc with it) goes on in floating point: ⎕PP←17 prints all its digits, so that the runner compares an integer.
N←1000000 ⎕ArgInt 1
⎕PP←17
k←1000003|7919×⍳N
q←1000003|104729×⍳N
s←k[⍋k]
⎕←s[⌈N÷2],(+/k⍳q),+/q∊k
