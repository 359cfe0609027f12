⍝ a negative shape
⍝! DOMAIN ERROR
¯1⍴5
