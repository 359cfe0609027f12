⍝ never called, still checked: the length of a compress depends on the data, so the length ρ cannot be proved
⍝! TYPE ERROR
positive←{ ⍝: <int>ρ → <int>ρ
  (⍵>0)/⍵
}
