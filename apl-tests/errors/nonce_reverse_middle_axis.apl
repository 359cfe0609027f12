⍝ ⌽ with an axis between the first and the last (of a rank-3 array) is not supported.
⍝! NONCE ERROR
a←2 3 4⍴⍳24
⌽[2]a
