⍝ a dfn has no identity item, and the length of ⍳n is not known before the program runs: the axis may be empty, so
⍝ the reduction is rejected when compiling (APL would give DOMAIN ERROR on an empty axis), with a hint
⍝! DOMAIN ERROR
n←⊃⍳5
{⍺+2×⍵}/⍳n
