⍝ the function derived from an operator can be called dyadically: 10 - 3
⍝> 7
⍝> 13
apply←{⍺ ⍺⍺ ⍵}
10 -apply 3
10 +apply 3
