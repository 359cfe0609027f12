⍝ scalar recursion with ∇
⍝> 120
⍝> 1
⍝> 3628800
fact←{⍵≤1:1 ⋄ ⍵×∇ ⍵-1}
fact 5
fact 0
fact 10
