⍝ (⊂I)⌷A selects the major cells of A at the indices I, like A[I;…] (the enclosure needs no nested array here).
⍝ Checked by hand on m←3 2⍴⍳6 (rows 1 2, 3 4, 5 6): rows 2 1; row 3 as a vector; characters 3 and 1 of 'abcde';
⍝ x sorted through its grade; an index in a variable.
⍝> 3 4
⍝> 1 2
⍝> 5 6
⍝> ca
⍝> 1 3 5 9
⍝> 3 4
m←3 2⍴⍳6
(⊂2 1)⌷m
(⊂3)⌷m
(⊂3 1)⌷'abcde'
x←5 3 9 1
(⊂⍋x)⌷x
i←2
(⊂i)⌷m
