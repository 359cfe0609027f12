⍝ scalar functions need equal lengths
⍝! LENGTH ERROR
1 2+1 2 3
