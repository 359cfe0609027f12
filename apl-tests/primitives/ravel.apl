⍝ monadic , ravels in row-major order; a scalar becomes a one-element vector
⍝> 1 2 3 4 5 6
⍝> 1
⍝> 7
,2 3⍴⍳6
⍴,7
,7
