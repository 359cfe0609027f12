⍝ indexing a vector with two indices
⍝! RANK ERROR
v←1 2 3
v[1;2]
