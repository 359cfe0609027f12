⍝ boolean functions on characters
⍝! DOMAIN ERROR
'ab'∧'cd'
