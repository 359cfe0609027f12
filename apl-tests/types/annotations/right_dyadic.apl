⍝ a correct dyadic annotation: both vectors share one length and the result is a scalar
⍝> 32
dot←{ ⍝: <int>ρ → <int>ρ → int
  +/⍺×⍵
}
1 2 3 dot 4 5 6
