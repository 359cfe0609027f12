⍝ never called, still checked: ⍵ has length ρ+1 and 1↓⍵ length ρ, so ⍵+1↓⍵ is always a LENGTH ERROR
⍝! TYPE ERROR
next←{ ⍝: <int>(ρ+1) → <int>ρ
  ⍵+1↓⍵
}
