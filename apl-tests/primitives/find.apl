⍝ ⍷ (find): 1 where a copy of the left argument starts in the right (src/elab/structural.rs, prelude
⍝ find_along_last_axis and find_in_matrix). Checked by hand, against Dyalog's definition:
⍝ 'ab' starts at 2 and 4 of 'cabab'; 'a' at 2 4 6 of 'banana'; the empty vector starts everywhere; 'abcd' is longer
⍝ than 'abc', so nowhere; 2 3 at 2 and 4 of 1 2 3 2 3.
⍝ The matrix 1 2/3 4 in the rows 1 2 1 2/3 4 3 4/1 2 1 2: at (1,1) and (1,3) only (its second row must be 3 4).
⍝ A vector is found along the last axis of a matrix, in each row: 'ab' in 'abc' at 1, in 'xab' at 2.
⍝ Scalars: 1⍷2 is 0, 3⍷3 is 1 (a scalar result). Numbers are never found among characters; an argument of higher
⍝ rank is found nowhere; a matrix wider than the right argument (2 3 in 3 2) is found nowhere, with the right
⍝ argument's shape ('abc' in a 3×3 matrix of numbers: nowhere). Doubles compare as = does (1.5 2 at 2 and 4);
⍝ booleans as numbers (1 0 in 1 0 1 1 0 at 1 and 4).
⍝ Run-time lengths: the left argument of length n in ⍳10 (n=3: 4 5 6 at 4) and in a vector of length 0.
⍝> 0 1 0 1 0
⍝> 0 1 0 1 0 1
⍝> 1 1 1
⍝> 0 0 0
⍝> 0 1 0 1 0
⍝> 1 0 1 0
⍝> 0 0 0 0
⍝> 0 0 0 0
⍝> 1 0 0
⍝> 0 1 0
⍝> 0
⍝> 1
⍝> 0 0 0
⍝> 0 0 0 0
⍝> 3 2
⍝> 0 0 0
⍝> 0 0 0
⍝> 0 0 0
⍝> 0 1 0 1 0
⍝> 1 0 0 1 0
⍝> 0 0 0 1 0 0 0 0 0 0
⍝> 0
'ab'⍷'cabab'
'a'⍷'banana'
''⍷'abc'
'abcd'⍷'abc'
2 3⍷1 2 3 2 3
(2 2⍴1 2 3 4)⍷3 4⍴1 2 1 2 3 4 3 4 1 2 1 2
'ab'⍷2 3⍴'abcxab'
1⍷2
3⍷3
5⍷'abc'
(2 2⍴'ab')⍷'abab'
⍴(2 3⍴1)⍷3 2⍴1
'abc'⍷3 3⍴0
1.5 2⍷1 1.5 2 1.5 2.0
1 0⍷1 0 1 1 0
n←3 ⎕ArgInt 1
(3+⍳n)⍷⍳10
≢(⍳n)⍷⍳0
