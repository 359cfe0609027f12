⍝ indexing a vector with a scalar gives a scalar
⍝> 20
⍝> 40
v←10 20 30 40
v[2]
v[≢v]
