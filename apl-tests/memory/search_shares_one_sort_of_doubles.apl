⍝ ⍳, ∊ and ⍋ of one vector k of doubles sort it once (src/lower/search.rs; doubles compare tolerantly, so they are
⍝ searched sorted, not hashed): the loop IR allocates the four blocks of one sort (keys and positions, twice for
⍝ the merges), where three sorts would take twelve. The 10 allocations: k's scan (its input, its result and the
⍝ chunk totals), the constant 0 500, the sort's four, the grade, the printed result.
⍝ By hand: k is the running sums of halves of positive residues, so it increases and its values are distinct; q is
⍝ k at the odd positions and k+500 at the even ones (k+500 would be another k only if a sum of consecutive residues
⍝ 7919i mod 1000003, i ≤ 1000, were 1000, and none is). So k⍳q is i at the 500 odd positions (sum 250000) and 1001
⍝ at the even ones (500500): 750500; 500 queries are members; ⍋k is ⍳1000, whose sum is 500500.
⍝# loops allocs 10
⍝> 750500 500 500500
N←1000 ⎕ArgInt 1
k←+\0.5×1000003|7919×⍳N
q←k+0 500⍴⍨N
(+/k⍳q),(+/q∊k),+/⍋k
