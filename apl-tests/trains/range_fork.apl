⍝ (⌈/-⌊/) is the range of a vector
⍝> 4
(⌈/-⌊/)3 1 4 1 5
