⍝ an index past the end
⍝! INDEX ERROR
(⍳3)[4]
