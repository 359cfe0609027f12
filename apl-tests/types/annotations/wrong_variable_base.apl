⍝ one base-type variable κ for argument and result, but the result is double for an int argument
⍝! TYPE ERROR
avg←{ ⍝: <κ>ρ → κ
  (+/⍵)÷≢⍵
}
avg 1 2 3 4
