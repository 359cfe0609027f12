⍝ find of a matrix in an array of rank 3 is not supported yet
⍝! NONCE ERROR at 3:8
(2 2⍴1)⍷2 2 2⍴1
