⍝ ⍳ of a negative number
⍝! DOMAIN ERROR at 3:1
⍳¯1
