⍝ a malformed annotation is a SYNTAX ERROR at the annotation, although the dfn is never called
⍝! SYNTAX ERROR
f←{ ⍝: <int>ρ → <int
  ⍵
}
