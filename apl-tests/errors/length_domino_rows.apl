⍝ ⍺⌹⍵ needs as many items of ⍺ as rows of ⍵.
⍝! LENGTH ERROR at 3:5
1 2 ⌹3 3⍴1 0 0 0 1 0 0 0 1
