⍝ both arguments share the length ρ in the annotation, but the call gives lengths 2 and 3
⍝! TYPE ERROR
dot←{ ⍝: <int>ρ → <int>ρ → int
  +/⍺×⍵
}
1 2 dot 3 4 5
