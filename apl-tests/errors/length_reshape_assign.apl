⍝ indexed assignment needs as many values as indices
⍝! LENGTH ERROR
v←1 2 3 4
v[1 2]←7 8 9
