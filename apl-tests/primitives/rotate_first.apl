⍝ dyadic ⊖ rotates along the first axis, with positive and negative counts
⍝> 3 4
⍝> 5 6
⍝> 1 2
⍝> 5 6
⍝> 1 2
⍝> 3 4
1⊖3 2⍴⍳6
¯1⊖3 2⍴⍳6
