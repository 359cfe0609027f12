⍝ dyadic ⍴ cycles through the source when the result is larger
⍝> 1 2 3 1 2 3 1
⍝> 1 2 3
⍝> 4 1 2
7⍴1 2 3
2 3⍴1 2 3 4
