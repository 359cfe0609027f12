⍝ ⍳ of a negative number
⍝! DOMAIN ERROR
⍳¯1
