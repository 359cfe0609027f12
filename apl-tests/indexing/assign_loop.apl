⍝ repeated indexed assignment in a tail-recursive loop: squares into a vector
⍝> 1 4 9 16 25
fill←{⍺>5:⍵ ⋄ w←⍵ ⋄ w[⍺]←⍺×⍺ ⋄ (⍺+1)∇ w}
1 fill 5⍴0
