⍝ dfns as tines of a fork: (3×2)+(3+1)
⍝> 10
({⍵×2}+{⍵+1})3
