⍝ the statement annotation gives the function a matrix result, but it returns a vector
⍝! TYPE ERROR
⍝: neg : <int>ρ → [int]2
neg←{-⍵}
neg 1 2
