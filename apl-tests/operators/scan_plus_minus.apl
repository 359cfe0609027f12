⍝ +\ gives running sums; -\ is the reduce of each prefix: 1, 1-2, 1-(2-3), 1-(2-(3-4))
⍝> 1 3 6 10
⍝> 1 ¯1 2 ¯2
+\1 2 3 4
-\1 2 3 4
