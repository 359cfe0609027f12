⍝ dyadic ↑ on a matrix takes along both axes, negative from the end, padding with zeros
⍝> 1 2
⍝> 4 5
⍝> 5 6
⍝> 8 9
⍝> 1 2 0 0
⍝> 3 4 0 0
⍝> 0 0 0 0
2 2↑3 3⍴⍳9
¯2 ¯2↑3 3⍴⍳9
3 4↑2 2⍴⍳4
