⍝ the statement annotation says x is a character vector; ⍳3 is a vector of ints
⍝! TYPE ERROR
⍝: x : <char>3
x←⍳3
x
