⍝ index expressions are evaluated: the last item and the items at even positions
⍝> 50
⍝> 20 40
v←10 20 30 40 50
v[⍴v]
v[2×⍳2]
