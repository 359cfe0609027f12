⍝ ⍺,[k]⍵ with k between integers (laminate): the two arrays, of one shape, stacked along a new axis of length 2
⍝ before axis ⌈k. Checked by hand: 1 2 3 and 4 5 6 as the rows of a 2×3 matrix ([0.5]) or its columns ([1.5]);
⍝ characters; two 2×2 matrices as the planes of a 2×2×2 array; a scalar extended to a 2×3 matrix and stacked last:
⍝ shape 2 3 2; two scalars give a vector.
⍝> 1 2 3
⍝> 4 5 6
⍝> 1 4
⍝> 2 5
⍝> 3 6
⍝> abc
⍝> def
⍝> 1 2
⍝> 3 4
⍝>
⍝> 5 6
⍝> 7 8
⍝> 2 3 2
⍝> 1 2
1 2 3,[0.5]4 5 6
1 2 3,[1.5]4 5 6
'abc',[0.5]'def'
(2 2⍴⍳4),[0.5]2 2⍴5 6 7 8
⍴(2 3⍴⍳6),[2.5]0
1,[0.5]2
