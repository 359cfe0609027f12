⍝ a dfn defined and used inside another dfn: (3×2)×2
⍝> 12
f←{g←{⍵×2} ⋄ g g ⍵}
f 3
