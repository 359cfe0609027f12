⍝ A singular matrix has no inverse: the 3×3 matrix of 1..9 (its rows are in arithmetic progression) is singular,
⍝ though rounding leaves a pivot near 1E¯16. The inverse of 2 times the identity is 0.5 times it (sum 1.5).
⍝! DOMAIN ERROR at 7:1
⍝> 1.5
B←⌹3 3⍴2 0 0 0 2 0 0 0 2
+/,B
⌹3 3⍴⍳9
