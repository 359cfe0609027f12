⍝ dyadic ⌽ on a matrix rotates each row
⍝> 2 3 1
⍝> 5 6 4
⍝> 3 1 2
⍝> 6 4 5
1⌽2 3⍴⍳6
¯1⌽2 3⍴⍳6
