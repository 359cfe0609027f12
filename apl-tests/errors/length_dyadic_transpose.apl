⍝ the left argument of dyadic ⍉ needs one item per axis
⍝! LENGTH ERROR
1⍉2 2⍴1
