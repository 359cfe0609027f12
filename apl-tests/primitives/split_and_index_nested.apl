⍝ ↓ (split) and indexing a nested vector with constants, as Dyalog shows them (a blank before each non-scalar item).
⍝ Checked by hand:
⍝ - w[2] is the enclosed word 'quick' (a nested scalar, shown after a blank); w[3 1] and w[4 4 1] are nested
⍝   vectors of those words; ⍴w[2 3] is 2;
⍝ - ↓ of a 2×3 matrix is its two rows; ↓ of a vector is the vector enclosed;
⍝ - ⍉↑ of two rows is the 3×2 matrix of columns; ↑↓ gives the matrix back;
⍝ - 1↓¨ and ¯1↑¨ on the words: without the first letter, and the last letter as a one-item vector;
⍝ - the word lengths 3 5 5 3 replicate 1 2 3 4.
⍝>  quick
⍝>  brown  the
⍝>  fox  fox  the
⍝> 2
⍝>  1 2 3  4 5 6
⍝>  abc
⍝> 1 4
⍝> 2 5
⍝> 3 6
⍝> 1 2
⍝> 3 4
⍝> 5 6
⍝>  he  uick  rown  ox
⍝>  e  k  n  x
⍝> 1 1 1 2 2 2 2 2 3 3 3 3 3 4 4 4
w←'the' 'quick' 'brown' 'fox'
w[2]
w[3 1]
w[4 4 1]
⍴w[2 3]
↓2 3⍴⍳6
↓'abc'
⍉↑(1 2 3)(4 5 6)
↑↓3 2⍴⍳6
1↓¨w
¯1↑¨w
(≢¨w)/⍳4
