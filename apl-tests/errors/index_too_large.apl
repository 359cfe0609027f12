⍝ an index past the end
⍝! INDEX ERROR at 3:1
(⍳3)[4]
