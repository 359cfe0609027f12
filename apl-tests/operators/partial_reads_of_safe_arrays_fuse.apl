⍝ Partial reads (index, take, drop, first) of arrays whose elements cannot fail still fuse: no array is written for
⍝ 2×⍳1000 below, only the elements read are computed (the three allocations hold the printed results of 3↑, ¯2↑
⍝ and 2↓; z is folded to a constant). The same reads of an array whose elements may fail evaluate it
⍝ all first (apl-tests/errors/domain_unused_element_of_indexed_array.apl) and then give the same values.
⍝ Worked by hand: (2×⍳1000)[7] is 14; 3↑ is 2 4 6; ¯2↑ is 1998 2000; +/998↓ is 1998+2000 = 3998; ⊃ is 2.
⍝ ÷(⍳4)+1 is ÷2 3 4 5: element 2 is 1÷3 = 0.3333333333 and 2↓ is 0.25 0.2.
⍝> 14
⍝> 2 4 6
⍝> 1998 2000
⍝> 3998
⍝> 2
⍝> 0.3333333333
⍝> 0.25 0.2
⍝# loops allocs 3
y←2×⍳1000
y[7]
3↑y
¯2↑y
+/998↓y
⊃y
z←÷(⍳4)+1
z[2]
2↓z
