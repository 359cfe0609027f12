⍝ ⍳ and ∊ of one vector k build one hash table of it (src/lower/search.rs), ⍋ one sort: the loop IR allocates the
⍝ table's two blocks (keys and positions) once, where a table each would take four. The 12 allocations: k's scan
⍝ (its input, its result and the chunk totals), the constant 0 1000, the table's two, the sort's four (keys and
⍝ positions, twice for the merges), the grade, the printed result.
⍝ By hand: k, running sums of positive residues, increases, so it is sorted and its values are distinct; q is k at
⍝ the odd positions and k+1000 at the even ones (no sum of consecutive residues 7919i mod 1000003, i ≤ 1000, is
⍝ 1000). So k⍳q is i at the 500 odd positions (sum 250000) and 1001 at the even ones (500500): 750500; 500 queries
⍝ are members; ⍋k is ⍳1000, whose sum is 500500.
⍝# loops allocs 12
⍝> 750500 500 500500
N←1000 ⎕ArgInt 1
k←+\1000003|7919×⍳N
q←k+0 1000⍴⍨N
(+/k⍳q),(+/q∊k),+/⍋k
