⍝ indexing a vector with a matrix of indices gives a matrix of the index's shape
⍝> 10 20
⍝> 30 40
v←10 20 30 40
v[2 2⍴1 2 3 4]
