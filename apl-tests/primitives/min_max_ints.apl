⍝ ⌊ and ⌈ of integers return them unchanged; of booleans too
⍝> 3 ¯4 0
⍝> 1 0
⌊3 ¯4 0
⌈1 0
