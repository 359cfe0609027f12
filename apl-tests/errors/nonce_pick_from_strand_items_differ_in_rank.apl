⍝ 'M' is a scalar and 'CM' a vector: picking one of them with a computed index would have a rank known only when
⍝ running, which the static types do not allow
⍝! NONCE ERROR at 6:2
n←2 ⎕ArgInt 1
S←'M' 'CM' 'D'
n⊃S
