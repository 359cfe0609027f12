f←{⍝: <double>ρ → <double>ρ
  ⍵×2
}
