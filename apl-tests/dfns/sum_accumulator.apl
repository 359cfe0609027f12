⍝ tail recursion with an accumulator in ⍺ (defaulted to 0): 1+2+...+100 = 5050
⍝> 5050
⍝> 0
sum←{⍺←0 ⋄ ⍵=0:⍺ ⋄ (⍺+⍵)∇ ⍵-1}
sum 100
sum 0
