⍝ ⍺ f⍤1 ⍵ pairs the rows of ⍺ and ⍵: 3 rows against 2
⍝! LENGTH ERROR at 4:3
m←3 4⍴⍳12
m(+⍤1)2 4⍴1
