⍝ dyadic ∊ tests membership of each item of ⍺ in ⍵
⍝> 0 1 0 1
⍝> 0 0 1 1 1
⍝> 1
⍝> 0
1 2 3 4∊2 4 6
'hello'∊'lo'
3∊1 2 3
2.5∊1 2 3
