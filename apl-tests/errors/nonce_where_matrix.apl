⍝ ⍸ of a boolean matrix gives nested index pairs, which aplc does not support
⍝! NONCE ERROR
⍸2 2⍴1 0 0 1
