⍝ correct annotations on dfns that are never called: each is proved from the body alone, so the program is
⍝ accepted and prints only its last line
⍝> 1
rev←{ ⍝: <κ>ρ → <κ>ρ
  ⌽⍵
}
rot←{ ⍝: <int>ρ → <int>ρ
  1⌽⍵
}
sums←{ ⍝: <int>ρ → <int>ρ
  +\⍵
}
guarded←{ ⍝: <int>ρ → <int>ρ
  0=≢⍵: ⍵
  -⍵
}
three←{ ⍝: <int>ρ → <int>3
  3↑⍵
}
shape←{ ⍝: [κ]2 → <int>2
  ⍴⍵
}
ends←{ ⍝: <int>(ρ+1) → <int>(ρ+ρ)
  (1↓⍵),¯1↓⍵
}
first←{ ⍝: SV(int,n) → S(int,n)
  ⊃⍵
}
rows←{ ⍝: <int>ρ → <int>ρ
  +/⍵∘.×⍵
}
sorted←{ ⍝: <int>ρ → <int>ρ
  ⍵[⍋⍵]
}
shifted←{ ⍝: <int>ρ → <int>ρ
  1↓⍵,0
}
⍝: neg : <int>ρ → <int>ρ
neg←{-⍵}
1
