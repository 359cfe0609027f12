⍝ monadic ! is factorial on non-negative integers
⍝> 1 1 2 6 24 120
⍝> 3628800
!0 1 2 3 4 5
!10
