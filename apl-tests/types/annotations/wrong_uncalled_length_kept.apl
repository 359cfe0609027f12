⍝ never called, still checked: 1↓ of a vector of length ρ has length max(ρ-1,0), not ρ (only <int>(ρ+1) → <int>ρ is
⍝ provable)
⍝! TYPE ERROR
tail←{ ⍝: <int>ρ → <int>ρ
  1↓⍵
}
