⍝ one bad index in a vector of indices
⍝! INDEX ERROR at 3:1
(⍳5)[2 6 1]
