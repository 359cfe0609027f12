⍝ indexed assignment on a local copy inside a dfn leaves the global unchanged
⍝> 1 5 3
⍝> 1 2 3
v←1 2 3
f←{w←⍵ ⋄ w[2]←5 ⋄ w}
f v
v
