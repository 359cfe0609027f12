⍝ arithmetic on characters
⍝! DOMAIN ERROR
'a'+1
