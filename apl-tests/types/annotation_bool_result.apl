⍝ a correct annotation with a boolean result vector of the same length
⍝> 1 0 1 0
odd←{ ⍝: <int>ρ → <bool>ρ
  1=2|⍵
}
odd 1 2 3 4
