⍝ a HotSpot-style stencil (Rodinia): T' = T + 0.5×(P + 0.25×(N+S-2T) + 0.25×(E+W-2T) + 0.125×(80-T))
⍝ with border cells using themselves as missing neighbours; 4 by 4 grid, one heat source, 2 steps
⍝ all coefficients are powers of two, so every value is exact; worked with exact fractions (python3 Fraction):
⍝ step 1, cell [2;2]: 90+0.5×(8+0.25×(80+90-180)+0.25×(80+90-180)+0.125×(80-90)) = 90+0.5×1.75 = 90.875
⍝ step 1, cell [1;2]: 80+0.5×(0.25×(80+90-160)+0.25×(80+80-160)) = 81.25
⍝ after 2 steps the sum is 42333÷32 = 1322.90625, and 128×T is an integer matrix (symmetric about the diagonal)
⍝> 1322.90625
⍝> 10280 10524 10460 10280
⍝> 10524 11621 10949 10460
⍝> 10460 10949 10885 10460
⍝> 10280 10460 10460 10280
T←4 4⍴80.0 80 80 80 80 90 90 80 80 90 90 80 80 80 80 80
P←4 4⍴0 0 0 0 0 8 0 0 0 0 0 0 0 0 0 0
north←{(1↑⍵)⍪¯1↓⍵}
south←{(1↓⍵)⍪¯1↑⍵}
west←{⍉north⍉⍵}
east←{⍉south⍉⍵}
step←{⍵+0.5×P+(0.25×(north ⍵)+(south ⍵)-2×⍵)+(0.25×(east ⍵)+(west ⍵)-2×⍵)+0.125×80-⍵}
T2←step⍣2⊢T
+/,T2
128×T2
