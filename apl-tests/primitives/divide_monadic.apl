⍝ monadic ÷ is reciprocal; 1÷3 needs 10 significant digits
⍝> 0.25 0.5 ¯2
⍝> 0.3333333333
÷4 2 ¯0.5
÷3
