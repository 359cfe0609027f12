⍝ a correct annotation: 1↓ takes a vector of length ρ+1 to one of length ρ
⍝> 2 3
tail←{ ⍝: <int>(ρ+1) → <int>ρ
  1↓⍵
}
tail 1 2 3
