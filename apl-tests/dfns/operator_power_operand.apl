⍝ an operator whose right operand is a count passed to ⍣: 1 doubled 3 times
⍝> 8
pw←{⍺⍺⍣⍵⍵⊢⍵}
{⍵×2}pw 3⊢1
