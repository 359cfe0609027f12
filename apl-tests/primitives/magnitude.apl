⍝ monadic | is absolute value
⍝> 3 0 2.5 7
|¯3 0 2.5 ¯7
