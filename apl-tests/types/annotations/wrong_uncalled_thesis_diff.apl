⍝ the thesis writes diff as <κ>(ρ+1) → <κ>ρ; κ stands for every base type, and for κ = bool ⍵-¯1⌽⍵ gives ints
⍝ (for κ = char it fails), so the annotation must name the base type (annotation_vector_double.apl)
⍝! TYPE ERROR
diff←{ ⍝: <κ>(ρ+1) → <κ>ρ
  1↓⍵-¯1⌽⍵
}
