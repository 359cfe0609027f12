⍝ rows of a character matrix selected by index
⍝> def
⍝> abc
c←2 3⍴'abcdef'
c[2;]
c[1;]
