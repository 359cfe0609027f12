⍝ A ⍣ loop whose state grows cannot hoist the allocation of the new state (its size changes every iteration):
⍝ it stays inside the loop (a while loop here: ⍣ with a predicate).
⍝ 1 2 doubles to 4, 8, then 16 items, the first length above 10: 1 2 repeated 8 times.
⍝> 1 2 1 2 1 2 1 2 1 2 1 2 1 2 1 2
⍝# mem allocs-in-loops 1
{⍵,⍵}⍣{10<≢⍺}⊢1 2
