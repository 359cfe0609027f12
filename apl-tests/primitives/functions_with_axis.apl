⍝ Primitive functions with an axis, decided by their arguments' ranks: ⌽ ⊖ (reverse, rotate) and , ⍪ (catenate)
⍝ along the first or the last axis; ↑ ↓ of one count along one axis, the others whole; a scalar function whose
⍝ vector lies along axis k of the matrix. Checked by hand on m←2 3⍴⍳6 (rows 1 2 3 and 4 5 6): ⌽[2] and ⊖[2]
⍝ reverse the rows; 1⌽[2] rotates them; ,[2] adds a column 7 8; ,[1] a row 7 8 9; 2↑[2] keeps two columns; 1↓[1]
⍝ drops a row, 1↓[2] a column; -[1]10 20 subtracts 10 from row 1 and 20 from row 2; -[2]10 20 30 subtracts them
⍝ from the columns; 10 20+[1]m adds down the columns; ⌽[1] of a vector reverses it.
⍝> 3 2 1
⍝> 6 5 4
⍝> 3 2 1
⍝> 6 5 4
⍝> 2 3 1
⍝> 5 6 4
⍝> 1 2 3 7
⍝> 4 5 6 8
⍝> 1 2 3
⍝> 4 5 6
⍝> 7 8 9
⍝> 1 2
⍝> 4 5
⍝> 4 5 6
⍝> 2 3
⍝> 5 6
⍝>  ¯9  ¯8  ¯7
⍝> ¯16 ¯15 ¯14
⍝> ¯9 ¯18 ¯27
⍝> ¯6 ¯15 ¯24
⍝> 11 12 13
⍝> 24 25 26
⍝> 3 2 1
m←2 3⍴⍳6
⌽[2]m
⊖[2]m
1⌽[2]m
m,[2]7 8
m,[1]7 8 9
2↑[2]m
1↓[1]m
1↓[2]m
m-[1]10 20
m-[2]10 20 30
10 20+[1]m
⌽[1]1 2 3
