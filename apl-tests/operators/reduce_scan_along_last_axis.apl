⍝ / and \ with the axis [k] of an argument of rank k: its last axis, the same as without the axis. Checked by hand
⍝ on m←2 3⍴⍳6 (rows 1 2 3 and 4 5 6): row sums 6 15; running sums 1 3 6 and 4 9 15; columns 1 and 3 kept; sums of
⍝ pairs 3 5 and 9 11; on 2 2 2⍴⍳8 the sums of the last axis' pairs 1+2 3+4 5+6 7+8.
⍝> 6 15
⍝> 1 3  6
⍝> 4 9 15
⍝> 1 3
⍝> 4 6
⍝> 3  5
⍝> 9 11
⍝>  3  7
⍝> 11 15
m←2 3⍴⍳6
+/[2]m
+\[2]m
1 0 1/[2]m
2 +/[2]m
+/[3]2 2 2⍴⍳8
