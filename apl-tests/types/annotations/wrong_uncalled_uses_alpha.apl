⍝ never called, still checked: the annotation gives one argument, but the dfn uses ⍺ (and gives it no default)
⍝! TYPE ERROR
add←{ ⍝: <int>ρ → <int>ρ
  ⍺+⍵
}
