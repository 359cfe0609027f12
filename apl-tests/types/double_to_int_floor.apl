⍝ ⌊ and ⌈ of doubles give integers that combine with integers
⍝> 3
⍝> 2 ¯1
⍝> 5
(⌊2.7)+1
⌊2.7 ¯0.2
⍝ ⌈1.5 is 2 and ⌈2.5 is 3, so the sum is 5.
+/⌈1.5 2.5
