⍝ ⍺ f⍤1 ⍵ pairs the rows of a matrix (a frame of rank 1) with the rows of a rank-3 array (a frame of rank 2)
⍝! RANK ERROR at 4:3
m←3 4⍴⍳12
m(+⍤1)3 4 5⍴1
