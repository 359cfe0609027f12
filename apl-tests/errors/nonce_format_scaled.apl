⍝ a negative number of decimals asks for Dyalog's scaled (E) form, which ⍕ does not write
⍝! NONCE ERROR at 3:3
¯3⍕1234.5
