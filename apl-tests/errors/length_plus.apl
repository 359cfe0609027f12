⍝ scalar functions need equal lengths
⍝! LENGTH ERROR at 3:4
1 2+1 2 3
