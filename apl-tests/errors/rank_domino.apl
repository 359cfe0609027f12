⍝ ⌹ takes a scalar, a vector or a matrix.
⍝! RANK ERROR at 3:1
⌹2 2 2⍴⍳8
