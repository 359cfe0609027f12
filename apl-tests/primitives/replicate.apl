⍝ an integer left argument of / repeats items; a scalar count applies to all
⍝> 5 6 6 8 8 8
⍝> aab
⍝> 7 7 7
⍝> 1 1 2 2
1 2 0 3/5 6 7 8
2 1/'ab'
3/7
2/1 2
