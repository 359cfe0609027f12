⍝ ⌊ and ⌈ of doubles give integers that combine with integers
⍝> 3
⍝> 2 ¯1
⍝> 6
(⌊2.7)+1
⌊2.7 ¯0.2
+/⌈1.5 2.5
