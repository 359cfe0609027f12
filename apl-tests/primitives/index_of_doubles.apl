⍝ dyadic ⍳ and ∊ compare numbers of different types by value
⍝> 2 4
⍝> 1 0
1 2.5 3⍳2.5 7
2 2.5∊1 2 3
