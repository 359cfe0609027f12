⍝ dyadic | with a negative left argument: result has the sign of the left argument
⍝ ¯3|7 = 7-(¯3)×⌊7÷¯3 = 7-(¯3×¯3) = ¯2;  ¯3|¯7 = ¯7-(¯3×2) = ¯1;  ¯3|6 = 0
⍝> ¯2 ¯1 0
¯3|7 ¯7 6
