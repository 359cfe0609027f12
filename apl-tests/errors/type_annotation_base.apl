⍝ the annotation says int results but ⍵÷2 gives doubles: a static TYPE ERROR, so nothing is printed
⍝! TYPE ERROR
half←{ ⍝: <int>ρ → <int>ρ
  ⍵÷2
}
⎕←1 2 3
half 2 4 6
