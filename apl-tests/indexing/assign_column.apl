⍝ indexed assignment of a whole column with an elided row axis
⍝> 1 0 3
⍝> 4 0 6
m←2 3⍴⍳6
m[;2]←0
m
