⍝ an inner dfn with its own guard, applied with ¨ inside an outer dfn: clamp each item to ⍺
⍝> 1 3 3 2
clamp←{lim←⍺ ⋄ {⍵>lim:lim ⋄ ⍵}¨⍵}
3 clamp 1 5 3 2
