⍝ matrices of different shapes cannot be added
⍝! LENGTH ERROR
(2 3⍴1)+3 2⍴1
