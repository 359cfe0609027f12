⍝ A strand of characters and numbers is a simple mixed vector in Dyalog: characters side by side show as text, with
⍝ one blank between a character and a number or between two numbers; a non-scalar item keeps its two blanks. ⍕
⍝ gives the same text. Checked by hand from Dyalog's display rules.
⍝> ab 1 2
⍝> 1 ab 2.5
⍝> x  1 2  yz
⍝> ab 3
⍝> 4
'a' 'b' 1 2
1 'a' 'b' 2.5
'x' (1 2) 'y' 'z'
⍕'a' 'b' 3
≢⍕'a' 'b' 3
