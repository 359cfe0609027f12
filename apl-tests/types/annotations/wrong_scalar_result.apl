⍝ the dfn returns a vector but the annotation says a scalar
⍝! TYPE ERROR
iota←{ ⍝: int → int
  ⍳⍵
}
iota 4
