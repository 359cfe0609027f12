⍝ never called, still checked: ⍵,0 has length ρ+1, the annotation says ρ
⍝! TYPE ERROR
pad←{ ⍝: <int>ρ → <int>ρ
  ⍵,0
}
