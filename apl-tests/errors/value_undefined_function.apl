⍝ an undefined name used as a function
⍝! VALUE ERROR
foo 3
