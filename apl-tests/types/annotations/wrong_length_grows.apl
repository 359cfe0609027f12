⍝ catenating 0 makes the vector one longer than the annotation says
⍝! TYPE ERROR
pad←{ ⍝: <int>(ρ+1) → <int>ρ
  ⍵,0
}
pad 1 2 3
