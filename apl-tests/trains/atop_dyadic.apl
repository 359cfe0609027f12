⍝ an atop applied dyadically is f (⍺ g ⍵): -(3+4)
⍝> ¯7
⍝> 3 2 1
3(-+)4
1 2 3(⌽×)1 1 1
