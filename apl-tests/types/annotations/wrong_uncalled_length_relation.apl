⍝ never called, still checked: 1↓ of a vector of length ρ has length max(ρ-1,0), never ρ+5
⍝! TYPE ERROR
grow←{ ⍝: <int>ρ → <int>(ρ+5)
  1↓⍵
}
