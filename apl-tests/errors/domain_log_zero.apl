⍝ the natural log of zero
⍝! DOMAIN ERROR at 3:1
⍟0
