⍝ a dyadic operator: ⍺⍺ and ⍵⍵; composition (⍺⍺ ⍵⍵ ⍵): (3+1)×2
⍝> 8
⍝> ¯3
comp←{⍺⍺ ⍵⍵ ⍵}
{⍵×2}comp{⍵+1}3
-comp|¯3
