⍝ an elided row axis selects a whole column
⍝> 1 4 7
⍝> 3 6 9
m←3 3⍴⍳9
m[;1]
m[;3]
