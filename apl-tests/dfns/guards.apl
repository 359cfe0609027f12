⍝ guards are tried in order; the first true one gives the result
⍝> ¯1
⍝> 0
⍝> 1
sgn←{⍵<0:¯1 ⋄ ⍵=0:0 ⋄ 1}
sgn ¯5
sgn 0
sgn 3
