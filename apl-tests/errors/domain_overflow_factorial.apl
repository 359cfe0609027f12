⍝ !200.5 is Γ(201.5), beyond the largest double: a DOMAIN ERROR, not ∞.
⍝! DOMAIN ERROR
!200.5
