⍝ replicate counts must be integers
⍝! DOMAIN ERROR
1.5/3
