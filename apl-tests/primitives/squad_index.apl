⍝ dyadic ⌷ selects by index: one index per axis
⍝> 20
⍝> 6
2⌷10 20 30
2 3⌷3 3⍴⍳9
