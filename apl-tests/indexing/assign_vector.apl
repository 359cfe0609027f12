⍝ indexed assignment of one item of a vector
⍝> 10 99 30 40
v←10 20 30 40
v[2]←99
v
