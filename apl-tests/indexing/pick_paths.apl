⍝ ⍺⊃⍵ with a path: each item of ⍺ picks at one level, a scalar in a vector or strand, an enclosed vector of indices
⍝ in an array of higher rank; an empty path picks ⍵ itself. Checked by hand: item 2 of (1 2)(3 4) is 3 4, whose item
⍝ 1 is 3; item 2 of 'ab' is b; (⊂2 1) is row 2, column 1 of 2 2⍴⍳4, 3; M[3;2] of 3 3⍴⍳9 is 8; item 2
⍝ of the last strand is the matrix ab/cd, whose [1;2] is b; a run-time k picks among items of one type.
⍝> 3
⍝> b
⍝> 3
⍝> 30
⍝> cde
⍝> 5
⍝> 8
⍝> b
⍝> 20
⍝> 3
2 1⊃(1 2)(3 4)
1 2⊃'ab' 'cd'
(⊂2 1)⊃2 2⍴⍳4
3⊃10 20 30
2⊃'ab' 'cde'
⍬⊃5
M←3 3⍴⍳9
(⊂3 2)⊃M
(2 (⊂1 2))⊃(1 2) (2 2⍴'abcd')
k←2 ⎕ArgInt 1
k⊃10 20 30
(k 1)⊃(1 2)(3 4)
