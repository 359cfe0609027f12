⍝ a negative shape
⍝! DOMAIN ERROR at 3:3
¯1⍴5
