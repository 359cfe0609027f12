⍝ integer division gives doubles; integral doubles print without a point
⍝> 1.5
⍝> 2
⍝> 0.5 1 1.5
⍝> 1.5
6÷4
6÷3
(⍳3)÷2
+/1 1 1×0.5
