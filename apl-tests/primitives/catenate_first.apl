⍝ dyadic ⍪ joins along the first axis
⍝> 1 2
⍝> 3 4
⍝> 5 6
⍝> 7 8
⍝> 1 2
⍝> 3 4
⍝> 9 9
(2 2⍴⍳4)⍪2 2⍴5 6 7 8
(2 2⍴⍳4)⍪9
