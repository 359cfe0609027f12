⍝ dyadic ⊥ evaluates digits in a base; mixed radix 24 60 60⊥1 2 3 = 3600+120+3
⍝> 5
⍝> 123
⍝> 3723
⍝> 7
2⊥1 0 1
10⊥1 2 3
24 60 60⊥1 2 3
2⊥1 1 1
