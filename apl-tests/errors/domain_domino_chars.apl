⍝ ⌹ of characters.
⍝! DOMAIN ERROR at 3:1
⌹2 2⍴'abcd'
