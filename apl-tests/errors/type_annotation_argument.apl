⍝ the annotation accepts only character vectors but the dfn is applied to numbers
⍝! TYPE ERROR
up←{ ⍝: <char>ρ → <char>ρ
  ⌽⍵
}
up 1 2 3
