⍝ monadic ⍪ (table) turns a vector into a one-column matrix
⍝> 1
⍝> 2
⍝> 3
⍝> 3 1
⍪1 2 3
⍴⍪1 2 3
