⍝ an operator operand may be an array: ⍺⍺ is then a value
⍝> 6 7
add←{⍵+⍺⍺}
5 add 1 2
