⍝ \ with a dfn operand: running sums and running maxima
⍝> 1 3 6
⍝> 2 2 7 7
{⍺+⍵}\1 2 3
{⍺⌈⍵}\2 1 7 3
