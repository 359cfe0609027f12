⍝ \ scans each row of a matrix, ⍀ scans down the columns
⍝> 1 3  6
⍝> 4 9 15
⍝> 1 2 3
⍝> 5 7 9
+\2 3⍴⍳6
+⍀2 3⍴⍳6
