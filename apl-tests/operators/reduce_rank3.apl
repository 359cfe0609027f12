⍝ / on rank 3 reduces the last axis and gives a matrix; ⌿ the first axis
⍝ 2 2 2⍴⍳8: rows 1 2, 3 4, 5 6, 7 8; first-axis sums: 1+5 2+6 3+7 4+8
⍝ numeric matrix columns are right-aligned to their widest item
⍝>  3  7
⍝> 11 15
⍝>  6  8
⍝> 10 12
+/2 2 2⍴⍳8
+⌿2 2 2⍴⍳8
