⍝ An axis [1] on / and \ (reduce, scan, replicate, expand) works along the first axis, as ⌿ and ⍀ do. Checked by
⍝ hand on m←2 3⍴⍳6 (rows 1 2 3 and 4 5 6): column sums 5 7 9; running column sums 1 2 3 / 5 7 9; 1 0/[1] keeps
⍝ row 1; +/ without an axis gives the row sums 6 15.
⍝> 5 7 9
⍝> 1 2 3
⍝> 5 7 9
⍝> 1 2 3
⍝> 6 15
m←2 3⍴⍳6
+/[1]m
+\[1]m
1 0/[1]m
+/m
