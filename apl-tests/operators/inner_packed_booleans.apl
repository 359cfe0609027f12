⍝ Boolean inner products that run on words of 32 packed bits (src/elab/boolean_products.rs): ≠.∧ ∨.∧ +.∧ +.× ∧.=
⍝ ∨.≠ on boolean arrays. The small cases are worked by hand; the larger ones are compared with the same product on
⍝ ints (1×A is an int array, whose products are not packed), so that a wrong bit shows as a 0.
⍝ A's rows are 1011, 0110, 1111; B's columns are 1101 and 0111. Row 1 shares positions 1,4 with column 1 and 3,4
⍝ with column 2 (2 and 2: even, both some); row 2 shares 2 with column 1 and 2,3 with column 2 (1 and 2); row 3
⍝ shares all of each column (3 and 3). No row equals a column.
⍝> 0 0
⍝> 1 0
⍝> 1 1
⍝> 1 1
⍝> 1 1
⍝> 1 1
⍝> 2 2
⍝> 1 2
⍝> 3 3
⍝> 2 2
⍝> 1 2
⍝> 3 3
⍝> 0 0
⍝> 0 0
⍝> 0 0
⍝> 1 1
⍝> 1 1
⍝> 1 1
A←3 4⍴1 0 1 1 0 1 1 0 1 1 1 1
B←4 2⍴1 0 1 1 0 1 1 1
A≠.∧B
A∨.∧B
A+.∧B
A+.×B
A∧.=B
A∨.≠B
⍝ The rows of A are distinct, so A∧.=⍉A is the identity matrix. A vector on the left is one row (1011 against B:
⍝ 2 and 2), on the right one column (A against 1101: 2 1 3); two vectors give a scalar.
⍝> 1 0 0
⍝> 0 1 0
⍝> 0 0 1
⍝> 0 0
⍝> 2 1 3
⍝> 3
A∧.=⍉A
1 0 1 1≠.∧B
A+.∧1 1 0 1
1 0 1 1+.∧1 1 1 1
⍝ More than one word. 40⍴1 0 0 has ones at 1 4 7 … 40: 14 of them (even). 64 ones fill two words exactly; 65
⍝ spill one bit into a third (odd). An empty inner axis gives the identities: 0 for +, ≠ and ∨, 1 for ∧.
⍝> 14 0 0 1 0 0
⍝> 64 1
⍝> 0 0
⍝> 0 0
⍝> 1 1
⍝> 1 1
v←40⍴1 0 0
(v+.∧40⍴1),(v≠.∧40⍴1),(v∨.∧40⍴0),(v∧.=v),(v∧.=~v),v∨.≠v
((64⍴1)+.∧64⍴1),(65⍴1)≠.∧65⍴1
(2 0⍴1)+.∧0 2⍴1
(2 0⍴1)∧.=0 2⍴1
⍝ Pseudo-random matrices over 1, 2 and 3 words (k = 20, 33, 70) and rank 3 arguments, against the int products:
⍝ parity is 2|, some is 0<, all equal is a count of equal positions (both 1 or both 0) of k.
⍝> 1 1 1 1 1 1
⍝> 1 1 1 1 1 1
⍝> 1 1 1 1 1 1
⍝> 1 1 1 1 1 1
same←{I←1×⍺ ⋄ J←1×⍵ ⋄ k←≢⍵ ⋄ c←I+.×J ⋄ e←c+(1-I)+.×1-J ⋄ ((⍺≠.∧⍵)≡2|c),((⍺∨.∧⍵)≡0<c),((⍺+.∧⍵)≡c),((⍺+.×⍵)≡c),((⍺∧.=⍵)≡k=e),(⍺∨.≠⍵)≡k≠e}
(1=?9 20⍴2)same 1=?20 7⍴2
(1=?5 33⍴2)same 1=?33 11⍴2
(1=?6 70⍴2)same 1=?70 3⍴2
(1=?2 3 40⍴2)same 1=?40 2 2⍴2
