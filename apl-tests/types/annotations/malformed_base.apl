⍝ a number where a base type is expected: a SYNTAX ERROR at the annotation
⍝! SYNTAX ERROR
f←{ ⍝: <3>ρ → <int>ρ
  ⍵
}
