⍝ never called, still checked: a statement annotation on a dfn says the reversal grows the vector
⍝! TYPE ERROR
⍝: rev : <int>ρ → <int>(ρ+1)
rev←{⌽⍵}
