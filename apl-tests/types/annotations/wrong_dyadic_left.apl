⍝ the left argument is annotated as a scalar and given a vector
⍝! TYPE ERROR
scale←{ ⍝: int → <int>ρ → <int>ρ
  ⍺×⍵
}
1 2 scale 3 4
