⍝ ⍳ of a vector gives a nested array of index vectors
⍝! NONCE ERROR
⍳2 3
