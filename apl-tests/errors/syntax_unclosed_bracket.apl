⍝ an unclosed index bracket
⍝! SYNTAX ERROR
v←1 2 3
v[1
