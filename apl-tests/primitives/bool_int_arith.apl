⍝ booleans take part in arithmetic as 0 and 1
⍝> 3 2 3
⍝> 2.5 0 2.5
⍝> 2
1 0 1+2
1 0 1×2.5
(1=1)+1=1
