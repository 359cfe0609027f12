⍝ assigning to a number
⍝! SYNTAX ERROR
3←4
