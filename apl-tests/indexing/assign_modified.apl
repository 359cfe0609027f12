⍝ Modified assignment: `x f← v` is `x ← x f v` and its value is v, so in `x+←x+←1` the inner one makes x 2 and the
⍝ outer adds its value 1 (x is 3, not 4). `x[i] f← v` is `x[i] ← x[i] f v`: only the indexed elements change.
⍝> 3
⍝> 1 7 3
⍝> 10 7 300
⍝> 1 2 3
⍝> 3 4 5
⍝> 1
⍝> 10 8 300
x←1
x+←x+←1
x
x←1 2 3
x[2]+←5
x
x[1 3]×←10 100
x
m←2 3⍴⍳6
m[2;]-←1
m
y←x[2]+←1
y
x
