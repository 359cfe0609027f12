⍝ ⊥ needs numbers: characters are a DOMAIN ERROR (Dyalog), not an unsupported floating-point case.
⍝! DOMAIN ERROR
2⊥'ab'
