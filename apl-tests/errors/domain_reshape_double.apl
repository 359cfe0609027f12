⍝ a non-integral shape
⍝! DOMAIN ERROR
1.5⍴3
