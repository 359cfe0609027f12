⍝ the dfn is annotated for vectors and called with a matrix
⍝! TYPE ERROR
twice←{ ⍝: <int>ρ → <int>ρ
  2×⍵
}
twice 2 2⍴⍳4
