⍝ Dyadic ⍳ searches a vector (or the major cells of an array): a scalar on its left is a RANK ERROR, as in Dyalog.
⍝! RANK ERROR at 3:2
5⍳5
