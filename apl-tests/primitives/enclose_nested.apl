⍝ ⊂ and nested arrays whose items aplc knows when compiling (src/elab/strands.rs), with Dyalog's display of nested
⍝ vectors (a blank before each non-scalar item). Checked by hand:
⍝ - ⊂1 2 shows as its item after a blank; its shape is empty (a blank line), its tally 1, its depth 2;
⍝ - depth: 1 (2 3) mixes depths 0 and 1, so ¯2; (1 2)(3 4) is 2; ⊂⊂1 2 is 3;
⍝ - ⊂ of a simple scalar is the scalar; ⊃ and ↑ of ⊂ give the item back;
⍝ - +/(1 2)(3 4) is ⊂(1 2)+3 4, so 4 6; ,/ catenates 'ab' 'cde' 'f' into one item, which ⊃ discloses;
⍝ - the scalar functions pervade: -⊂1 2 is ⊂¯1 ¯2; 3 4=⊂1 3 4 is (3=1 3 4)(4=1 3 4); +10 adds to every item;
⍝   (1 2)(3 4)×2 (1 2) pairs items: 2 4 and 3 8;
⍝ - each on ⊂: ≢¨⊂1 2 3 is the simple scalar 3; {⍵+1}¨⊂1 2 is ⊂2 3;
⍝ - look-ups by match: 'cd' is item 2; 'ab' 'zz' are 1 and 4 (not found: 1+3); ⊂'cd' is a member; 'ab' 'zz' are
⍝   1 0; match of equal strands 1, of different ones 0, ≢ 1; a nested vector never matches a simple one;
⍝ - 3⍴⊂'ab' repeats the item; , of two enclosures is a 2-item vector; x,⊂4 5 appends an item;
⍝ - ∘.⍴ with non-scalar results: ⍴ of 2 by 1, 2, 3 is (,2) (2 2) (2 2 2); 1 2∘.+⊂10 20 is (11 21)(12 22);
⍝ - (a b)←⊂1 2 gives both names 1 2, so a+b is 2 4; ⍴¯1 0 1∘.⌽'ab' 'cd' is 3 2;
⍝ - ⌷ with a nested left argument indexes an axis per item: rows 3 1, column 2 of 3 2⍴⍳6 are 6 2.
⍝>  1 2
⍝>
⍝> 1
⍝> 2
⍝> ¯2
⍝> 2
⍝> 3
⍝> 5
⍝> 1 2 3
⍝> abc
⍝>  4 6
⍝> abcdef
⍝>  ¯1 ¯2
⍝>  0 1 0  0 0 1
⍝>  11 12  13 14
⍝>  2 4  3 8
⍝> 3
⍝>  2 3
⍝> 2
⍝> 1 4
⍝> 1
⍝> 1 0
⍝> 1
⍝> 0
⍝> 1
⍝> 0
⍝>  ab  ab  ab
⍝>  1 2  3 4
⍝>  1 2 3  4 5
⍝>  2  2 2  2 2 2
⍝>  11 21  12 22
⍝> 2 4
⍝> 3 2
⍝> 6 2
⊂1 2
⍴⊂1 2
≢⊂1 2
≡⊂1 2
≡1 (2 3)
≡(1 2)(3 4)
≡⊂⊂1 2
⊂5
⊃⊂1 2 3
↑⊂'abc'
+/(1 2)(3 4)
⊃,/'ab' 'cde' 'f'
-⊂1 2
3 4=⊂1 3 4
(1 2)(3 4)+10
(1 2)(3 4)×2 (1 2)
≢¨⊂1 2 3
{⍵+1}¨⊂1 2
'ab' 'cd' 'ef'⍳⊂'cd'
'ab' 'cd' 'ef'⍳'ab' 'zz'
(⊂'cd')∊'ab' 'cd'
'ab' 'zz'∊'ab' 'cd'
(1 2)(3 4)≡(1 2)(3 4)
(1 2)(3 4)≡(1 2)(3 5)
(1 2)(3 4)≢(1 2)(3 5)
(1 2)(3 4)≡1 2 3 4
3⍴⊂'ab'
(⊂1 2),(⊂3 4)
x←⊂⍳3
x,⊂4 5
1 2 3∘.⍴2
1 2∘.+⊂10 20
(a b)←⊂1 2
a+b
⍴¯1 0 1∘.⌽'ab' 'cd'
(3 1)2⌷3 2⍴⍳6
