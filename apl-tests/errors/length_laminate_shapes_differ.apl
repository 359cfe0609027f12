⍝ Laminating arrays of different lengths: LENGTH ERROR.
⍝! LENGTH ERROR
n←3 ⎕ArgInt 1
(⍳n),[0.5]1 2
