⍝ never called, still checked: ⍵÷2 gives doubles, the annotation says ints
⍝! TYPE ERROR
half←{ ⍝: <int>ρ → <int>ρ
  ⍵÷2
}
