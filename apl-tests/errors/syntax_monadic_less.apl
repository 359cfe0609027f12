⍝ < has no monadic form (there is no such function): a SYNTAX ERROR as in Dyalog, not a NONCE ERROR.
⍝! SYNTAX ERROR
<1
