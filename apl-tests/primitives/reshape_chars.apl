⍝ a character matrix prints one row per line
⍝> abc
⍝> def
2 3⍴'abcdef'
