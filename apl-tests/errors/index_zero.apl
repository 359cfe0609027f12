⍝ index 0 with ⎕IO=1
⍝! INDEX ERROR
(⍳3)[0]
