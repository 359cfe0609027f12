⍝ The difference of two overflows (∞-∞, NaN in IEEE arithmetic) never prints: the first overflow is already a
⍝ DOMAIN ERROR. 1e308+1e307 (1.1E308) is below the largest double (about 1.8E308).
⍝> 1.1E308
⍝! DOMAIN ERROR
⎕←1e308+1e307
(1e308×10)-(1e308×10)
