⍝ indexed assignment with a vector of indices and a scalar or a vector of values
⍝> 0 20 0 40
⍝> 7 20 8 40
v←10 20 30 40
v[1 3]←0
v
v[1 3]←7 8
v
