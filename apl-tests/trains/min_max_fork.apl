⍝ the fork (⌊/,⌈/) gives the smallest and largest items
⍝> 1 5
(⌊/,⌈/)3 1 4 1 5
