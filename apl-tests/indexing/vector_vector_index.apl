⍝ indexing a vector with a vector of indices, repeats allowed
⍝> 20 40
⍝> 40 10 10
v←10 20 30 40
v[2 4]
v[4 1 1]
