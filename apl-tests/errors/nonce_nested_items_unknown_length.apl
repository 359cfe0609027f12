⍝ a vector of a length known only when running paired with a nested scalar would make a nested vector of that length
⍝! NONCE ERROR at 4:5
n←3 ⎕ArgInt 1
(⍳n)+⊂1 2
