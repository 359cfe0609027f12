⍝ never called, still checked: the annotation gives ⍺ and ⍵, but the dfn uses only ⍵
⍝! TYPE ERROR
inc←{ ⍝: int → <int>ρ → <int>ρ
  ⍵+1
}
