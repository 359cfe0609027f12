⍝ Recursion deeper than the limit (10000 active calls on every backend) is WS FULL, as Dyalog reports recursion that
⍝ exhausts its stack, at the recursive call (`depth ⍵-1`, line 6, column 18); never a crash. 5000 calls deep is fine first.
⍝> 5000
⍝! WS FULL at 6:18
n←5000 ⎕ArgInt 1
depth←{⍵=0:0 ⋄ 1+depth ⍵-1}
depth n
depth 4×n
