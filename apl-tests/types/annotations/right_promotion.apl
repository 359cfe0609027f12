⍝ an int argument is accepted where doubles are annotated (promotion bool < int < double)
⍝> 1.5 3
half←{ ⍝: <double>ρ → <double>ρ
  ⍵÷2
}
half 3 6
