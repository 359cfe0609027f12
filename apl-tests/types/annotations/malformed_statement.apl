⍝ a statement annotation without the name: a SYNTAX ERROR, although the dfn is never called
⍝! SYNTAX ERROR
⍝: <int>ρ → <int>ρ
neg←{-⍵}
