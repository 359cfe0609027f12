⍝ an atop (f g) applied monadically is f (g ⍵)
⍝> ¯3 ¯2 ¯1
⍝> 1 2 3
⍝> 14
(-⌽)1 2 3
(⍳≢)'abc'
(+/×⍨)1 2 3
