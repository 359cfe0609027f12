⍝ dyadic ↓ drops from the front or the back; dropping everything gives an empty vector
⍝> 3 4 5
⍝> 1 2 3
⍝>
⍝> 0
2↓1 2 3 4 5
¯2↓1 2 3 4 5
10↓1 2 3
≢10↓1 2 3
