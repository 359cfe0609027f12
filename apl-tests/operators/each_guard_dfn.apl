⍝ ¨ with a dfn that uses a guard gives an elementwise conditional
⍝> 0 0 3 4
{⍵<3:0 ⋄ ⍵}¨1 2 3 4
