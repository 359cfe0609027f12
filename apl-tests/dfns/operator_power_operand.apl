⍝ an operator whose right operand is a count passed to ⍣: 5 doubled 3 times
⍝> 40
pw←{⍺⍺⍣⍵⍵⊢⍵}
{⍵×2}pw 3⊢5
