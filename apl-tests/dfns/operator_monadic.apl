⍝ a monadic operator: ⍺⍺ is the operand function; twice applies it two times
⍝> 7
⍝> 20
twice←{⍺⍺ ⍺⍺ ⍵}
{⍵+1}twice 5
{⍵×2}twice 5
