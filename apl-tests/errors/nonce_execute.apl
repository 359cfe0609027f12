⍝ execute (⍎) is not supported
⍝! NONCE ERROR
⍎'1+1'
