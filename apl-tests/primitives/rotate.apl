⍝ dyadic ⌽ rotates left for positive, right for negative counts, modulo the length
⍝> 3 4 5 1 2
⍝> 5 1 2 3 4
⍝> 3 4 5 1 2
⍝> 1 2 3 4 5
2⌽1 2 3 4 5
¯1⌽1 2 3 4 5
7⌽1 2 3 4 5
5⌽1 2 3 4 5
