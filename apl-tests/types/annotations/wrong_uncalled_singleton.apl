⍝ never called, still checked: ≢⍵ of a vector of length ρ is the singleton ρ, not ρ+1
⍝! TYPE ERROR
count←{ ⍝: <κ>ρ → S(int,ρ+1)
  ≢⍵
}
