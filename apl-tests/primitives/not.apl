⍝ monadic ~ on booleans
⍝> 0 1 0
⍝> 1
~1 0 1
~0
