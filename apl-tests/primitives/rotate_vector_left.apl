⍝ dyadic ⌽ with a vector left argument rotates each row of a matrix by its own count
⍝ row 1 (1 2 3) by 1 → 2 3 1; row 2 (4 5 6) by 2 → 6 4 5
⍝> 2 3 1
⍝> 6 4 5
1 2⌽2 3⍴⍳6
