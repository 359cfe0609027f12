⍝ A floating-point result that overflows to ∞ is a DOMAIN ERROR on every backend (Dyalog), not a printed ∞;
⍝ the output before it is printed. 1e308×10 overflows; 2*1023 (8.98846567431158E307) does not.
⍝> 8.988465674E307
⍝! DOMAIN ERROR at 6:6
⎕←2*1023
1e308×10
