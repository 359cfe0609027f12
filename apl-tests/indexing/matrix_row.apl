⍝ an elided column axis selects a whole row
⍝> 4 5 6
m←3 3⍴⍳9
m[2;]
