⍝ a dfn has no identity item, and the length of ⍳n is not known before the program runs (?1 is drawn then): the axis may be empty, so
⍝ the reduction is rejected when compiling (APL would give DOMAIN ERROR on an empty axis), with a hint
⍝! DOMAIN ERROR
n←?1
{⍺+2×⍵}/⍳n
