⍝ one bad index in a vector of indices
⍝! INDEX ERROR
(⍳5)[2 6 1]
