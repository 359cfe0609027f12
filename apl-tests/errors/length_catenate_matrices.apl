⍝ catenating matrices along the last axis needs equal numbers of rows
⍝! LENGTH ERROR
(2 2⍴1),3 3⍴1
