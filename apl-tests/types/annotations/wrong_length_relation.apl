⍝ 1↓ makes the vector one shorter, so the result cannot have the argument's length ρ
⍝! TYPE ERROR
tail←{ ⍝: <int>ρ → <int>ρ
  1↓⍵
}
tail 1 2 3
