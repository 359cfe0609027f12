⍝ a parenthesised dyadic fork as the operand of reduce: (⊣+⊢) behaves as +
⍝ (⊣+⊢)/1 2 3 4 = 1+(2+(3+4)) = 10
⍝> 10
(⊣+⊢)/1 2 3 4
