⍝ an assignment with no value
⍝! SYNTAX ERROR
x←
