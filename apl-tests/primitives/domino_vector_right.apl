⍝ ⍺⌹⍵ with a vector ⍵: ⍵ is one column, and the result has no axis for it (least squares through the origin).
⍝ Checked by hand: 2 4 6 is exactly 2×1 2 3, a scalar 2; the columns of the matrix are 1×(1 2 3) and 2×(1 2 3),
⍝ so the fit is the vector 1 2.
⍝> 2
⍝>
⍝> 1 2
2 4 6⌹1 2 3
⍴2 4 6⌹1 2 3
(3 2⍴1 2 2 4 3 6)⌹1 2 3
