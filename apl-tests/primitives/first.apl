⍝ monadic ⊃ on a simple array gives its first element in ravel order
⍝> 5
⍝> h
⍝> 9
⍝> 2.5
⊃5 6 7
⊃'hello'
⊃2 2⍴9 8 7 6
⊃2.5
