⍝ comparing gives booleans (numbers), annotated here as characters
⍝! TYPE ERROR
less←{ ⍝: int → int → char
  ⍺<⍵
}
1 less 2
