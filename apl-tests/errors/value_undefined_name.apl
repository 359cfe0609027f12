⍝ an undefined name
⍝! VALUE ERROR
x+1
