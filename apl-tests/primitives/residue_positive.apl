⍝ dyadic | (residue) with a positive left argument takes the sign of the left argument
⍝ 3|¯7: ¯7-3×⌊¯7÷3 = ¯7-3×¯3 = 2;  3|7 = 1
⍝> 2 1 0 0 2
3|¯7 7 ¯3 0 5
