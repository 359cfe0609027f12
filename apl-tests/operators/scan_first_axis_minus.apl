⍝ -⍀ on a matrix scans down each column: column 1 is 1, 1-3, 1-(3-5) = 1 ¯2 3
⍝>  1  2
⍝> ¯2 ¯2
⍝>  3  4
-⍀3 2⍴⍳6
