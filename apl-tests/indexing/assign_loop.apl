⍝ repeated indexed assignment in a tail-recursive loop: squares into an integer vector of ¯1s
⍝> 1 4 9 16 25
fill←{⍺>5:⍵ ⋄ w←⍵ ⋄ w[⍺]←⍺×⍺ ⋄ (⍺+1)∇ w}
1 fill 5⍴¯1
