⍝ monadic ! is factorial on non-negative integers; computed in doubles, as Dyalog does beyond 32 bits, so that !25
⍝ (15511210043330985984000000) is 1.551121004E25 at ⎕PP 10 rather than an overflow; !20 is 2432902008176640000.
⍝> 1 1 2 6 24 120
⍝> 3628800
⍝> 2.432902008E18
⍝> 1.551121004E25
!0 1 2 3 4 5
!10
!20
!25
