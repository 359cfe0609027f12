⍝ a malformed annotation of a dfn inside another dfn, neither of them called: a SYNTAX ERROR
⍝! SYNTAX ERROR
outer←{
  inner←{ ⍝: [int → int
    ⍵
  }
  inner ⍵
}
