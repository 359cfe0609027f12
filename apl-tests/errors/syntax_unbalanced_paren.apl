⍝ an unclosed parenthesis
⍝! SYNTAX ERROR
(1 2
