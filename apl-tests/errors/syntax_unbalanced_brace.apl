⍝ an unclosed dfn
⍝! SYNTAX ERROR
{⍵+1
