⍝ ⍳, ∊ and ⍋ of one vector k sort it once (src/lower/search.rs): the loop IR allocates the four blocks of one sort
⍝ (keys and positions, twice for the merges), where three sorts would take twelve. The 10 allocations: k's scan
⍝ (its input, its result and the chunk totals), the constant 0 1000, the sort's four, the grade, the printed result.
⍝ By hand: k, running sums of positive residues, increases, so it is sorted and its values are distinct; q is k at
⍝ the odd positions and k+1000 at the even ones (no sum of consecutive residues 7919i mod 1000003, i ≤ 1000, is
⍝ 1000). So k⍳q is i at the 500 odd positions (sum 250000) and 1001 at the even ones (500500): 750500; 500 queries
⍝ are members; ⍋k is ⍳1000, whose sum is 500500.
⍝# loops allocs 10
⍝> 750500 500 500500
N←1000 ⎕ArgInt 1
k←+\1000003|7919×⍳N
q←k+0 1000⍴⍨N
(+/k⍳q),(+/q∊k),+/⍋k
