⍝ ⊤ with a vector right argument gives one column per item: columns are 1=0 0 1, 2=0 1 0, 3=0 1 1
⍝> 0 0 0
⍝> 0 1 1
⍝> 1 0 1
2 2 2⊤1 2 3
