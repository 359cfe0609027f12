⍝ dyadic ⍀ expands along the first axis, inserting rows of zeros
⍝> 1 2
⍝> 0 0
⍝> 3 4
1 0 1⍀2 2⍴⍳4
