⍝ dyadic ⍴ takes a prefix when the result is smaller; a scalar source is repeated
⍝> 1 2 3
⍝> 5 5
⍝> 5 5
⍝> 5 5
3⍴1 2 3 4 5
3 2⍴5
