⍝ indexing a parenthesised literal and a string
⍝> 20
⍝> oh
⍝> cba
(10 20 30)[2]
'hello'[5 1]
'abcdef'[3 2 1]
