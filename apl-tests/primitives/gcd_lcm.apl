⍝ on non-boolean integers ∨ is the greatest common divisor and ∧ the least common multiple
⍝> 6
⍝> 12
⍝> 4 5 1
12∨18
4∧6
12 15 7∨8 10 3
