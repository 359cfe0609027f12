⍝ dyadic ⍤ with cells below the rank of both arguments is not supported yet
⍝! NONCE ERROR at 4:3
m←2 2⍴⍳4
m(+⍤1)m
