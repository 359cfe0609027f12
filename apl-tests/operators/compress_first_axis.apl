⍝ ⌿ with a boolean left argument selects rows; with integers it repeats rows
⍝> 1 2
⍝> 5 6
⍝> 1 2
⍝> 1 2
⍝> 3 4
1 0 1⌿3 2⍴⍳6
2 1 0⌿3 2⍴⍳6
