⍝ a character vector is passed where ints are annotated
⍝! TYPE ERROR
count←{ ⍝: <int>ρ → int
  ≢⍵
}
count 'abc'
