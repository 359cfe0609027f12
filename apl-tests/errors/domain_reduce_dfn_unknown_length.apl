⍝ a dfn has no identity item, and the length of ⍳n is not known before the program runs (?1 is drawn then; it is
⍝ always 1): the reduction of the one-element ⍳n is its element, and the reduction of the empty ⍳n-1 is a DOMAIN ERROR
⍝ raised by the running program
⍝> 1
⍝! DOMAIN ERROR
n←?1
{⍺+2×⍵}/⍳n
{⍺+2×⍵}/⍳n-1
