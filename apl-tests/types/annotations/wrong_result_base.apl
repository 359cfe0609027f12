⍝ division gives doubles, but the annotation promises ints
⍝! TYPE ERROR
half←{ ⍝: <int>ρ → <int>ρ
  ⍵÷2
}
half 2 4 6
