⍝ statements before the failing one print normally; the index 4 is computed from the data
⍝> 10 20 30
⍝> 3
⍝! INDEX ERROR at 9:1
v←10 20 30
v
i←+/v>0
i
v[i+1]
