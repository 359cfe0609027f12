⍝ the statement annotation gives the vector length 4, but it has 3 elements
⍝! TYPE ERROR
⍝: v : <int>4
v←1 2 3
v
