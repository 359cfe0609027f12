⍝ ⍺⍳⍵ on rows needs rows of one length: 3 columns against 2
⍝! LENGTH ERROR at 3:9
(2 3⍴⍳6)⍳2 2⍴1
