⍝ the natural log of zero
⍝! DOMAIN ERROR
⍟0
