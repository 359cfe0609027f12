⍝ a closing parenthesis with no opening one
⍝! SYNTAX ERROR
1+2)
