⍝ dyadic ⌷ with one index per axis; monadic ⌷ returns its argument
⍝> 20
⍝> 6
⍝> 1 2 3
2⌷10 20 30
2 3⌷3 3⍴⍳9
⌷1 2 3
