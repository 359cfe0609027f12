⍝ dyadic ⍳ gives the first index of each item; not found gives 1+≢⍺
⍝> 2 4 1
⍝> 3 5
⍝> 4 1
⍝> 1
10 20 30⍳20 40 10
'hello'⍳'lo'
'abc'⍳'xa'
5 5 5⍳5
