⍝ indexed assignment past the end
⍝! INDEX ERROR
v←1 2 3
v[5]←1
