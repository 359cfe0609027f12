⍝ dyadic ↑ takes from the front (positive) or the back (negative); overtake pads with zeros
⍝> 1 2 3
⍝> 4 5
⍝> 1 2 0 0 0
⍝> 0 0 0 1 2
3↑1 2 3 4 5
¯2↑1 2 3 4 5
5↑1 2
¯5↑1 2
