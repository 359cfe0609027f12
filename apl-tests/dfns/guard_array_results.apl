⍝ Guards whose results are arrays, decided at run time (inside ⍣ the condition depends on the state), on every backend.
⍝ The branch taken may give an array of another length or shape than the argument: a guard's result need not have its
⍝ argument's shape.
⍝ Worked by hand:
⍝ - 1 2 3 4 5 (sum 15) doubles while its sum is at most 100: 30, 60, then 8 16 24 32 40 (sum 120) stays.
⍝ - 1 2 appends its length while shorter than 7: 1 2 2, 1 2 2 3, 1 2 2 3 4, 1 2 2 3 4 5 after four steps.
⍝ - 1 2 4 (sum 7, odd) adds 1: 2 3 5 (10, even) is reversed: 5 3 2 (10) reversed again: 2 3 5.
⍝ - 2 3⍴⍳6 (sum 21) is tripled (sum 63), then transposed (3 2) and transposed back (2 3).
⍝ - Two guards in a row on ,6: its sum is even, so it halves to ,3; the sum 3 is odd, so it triples to 3 3 3; that
⍝   has length 3 and stays.
⍝> 8 16 24 32 40
⍝> 1 2 2 3 4 5
⍝> 2 3 5
⍝>  3  6  9
⍝> 12 15 18
⍝> 3 3 3
v←⍳5
{(+/⍵)>100:⍵ ⋄ ⍵×2}⍣5⊢v
{(≢⍵)>6:⍵ ⋄ ⍵,≢⍵}⍣4⊢1 2
{0=2|+/⍵:⌽⍵ ⋄ ⍵+1}⍣3⊢1 2 4
{(+/,⍵)>50:⍉⍵ ⋄ ⍵×3}⍣3⊢2 3⍴⍳6
{(≢⍵)≥3:⍵ ⋄ 0=2|+/⍵:⌊⍵÷2 ⋄ ⍵,⍵,⍵}⍣3⊢,6
