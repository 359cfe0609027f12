⍝ never called, still checked: κ stands for every base type, and for κ = bool, ⍵-1 gives ints, not booleans
⍝! TYPE ERROR
dec←{ ⍝: <κ>ρ → <κ>ρ
  ⍵-1
}
