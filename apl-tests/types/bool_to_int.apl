⍝ booleans promote to integers in arithmetic and in +/
⍝> 3
⍝> 2
⍝> 2 1 2
+/1 1 1
+/3<1 5 7
1+0 1 0=0 1 0×0
