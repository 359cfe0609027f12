⍝ +/ of a vector is a scalar, not a vector
⍝! TYPE ERROR
total←{ ⍝: <double>ρ → <double>ρ
  +/⍵
}
total 1.5 2.5
