⍝ a correct dyadic annotation: ⍺ then ⍵ then the result, all double vectors of one length
⍝> 1.5 3.75
scale←{ ⍝: <double>ρ → <double>ρ → <double>ρ
  ⍺×⍵
}
0.5 1.5 scale 3 2.5
