⍝ never called, still checked: ,⍵∘.+⍵ has ρ×ρ elements, not ρ+ρ; a product of two lengths is not a linear term, so
⍝ no length of it is provable
⍝! TYPE ERROR
table←{ ⍝: <int>ρ → <int>(ρ+ρ)
  ,⍵∘.+⍵
}
