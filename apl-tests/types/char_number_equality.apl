⍝ = between a character and a number is 0 (never equal), ≠ is 1; no error
⍝> 0
⍝> 1 1
'1'=1
'ab'≠1 2
