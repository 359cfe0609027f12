⍝ An index given twice in an indexed assignment keeps the last value assigned to it (APL assigns in order):
⍝ x[1 1]←5 6 leaves 6. In the matrix, row 1 column 2 gets 7 then 8. A scalar value goes to every selected place,
⍝ and values read from the array itself are its old elements (the swap x[1 2]←x[2 1]).
⍝> 6 2 3
⍝> 0 8
⍝> 0 0
⍝> 9 9 3
⍝> 2 1 3
x←1 2 3
x[1 1]←5 6
x
m←2 2⍴0
m[1 1;2]←7 8
m
y←1 2 3
y[1 2 1]←9
y
z←1 2 3
z[1 2]←z[2 1]
z
