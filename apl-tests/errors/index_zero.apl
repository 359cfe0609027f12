⍝ index 0 with ⎕IO=1
⍝! INDEX ERROR at 3:1
(⍳3)[0]
