⍝ a correct statement annotation on an array and on a function
⍝> 1 2 3
⍝> ¯1 ¯2 ¯3
⍝: x : <int>3
x←⍳3
x
⍝: neg : <int>ρ → <int>ρ
neg←{-⍵}
neg x
