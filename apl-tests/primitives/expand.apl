⍝ dyadic \ inserts fill items (0 or blank) where the mask is 0
⍝> 1 0 2
⍝> [a bc]
⍝> 0 5 0
1 0 1\1 2
'[',(1 0 1 1\'abc'),']'
0 1 0\5
