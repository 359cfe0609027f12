⍝ = and ≠ compare characters
⍝> 1 1 0
⍝> 0 0 1 1 0
⍝> 1 1 0 0 1
'abc'='abd'
'l'='hello'
'hello'≠'l'
