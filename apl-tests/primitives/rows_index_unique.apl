⍝ ⍳, ∪ and ≠ on the rows of matrices (prelude rows_index_of: each row gets an id, refined column by column with ⍳).
⍝ Checked by hand:
⍝ - m's rows are 1 2, 3 4, 1 2, 5 6, 3 4: 3 4 is row 2, 9 9 is absent (6), 1 2 is row 1; the vector 5 6 is row 4;
⍝   ∪ keeps 1 2, 3 4, 5 6; ≠ marks rows 1 2 4;
⍝ - no rows: nothing found (1+0); rows of no columns all equal the first;
⍝ - character rows abc def abc xyz: abc is 1, xyz 4, def 2;
⍝ - rows compare tolerantly: 0.1+0.2 0.4 is the second row of 0.1 0.2/0.3 0.4;
⍝ - 100 2⍴⍳7 cycles through 7 distinct rows (14 numbers, 7 rows): 7 unique rows, and row i is first found at
⍝   1+7|i-1, whose sum over 100 rows is 14×28 (98 rows) + 1 + 2 = 395.
⍝> 2 6 1
⍝> 4
⍝> 1 2
⍝> 3 4
⍝> 5 6
⍝> 1 1 0 1 0
⍝> 1 1
⍝> 1 1
⍝> 1
⍝> 4 2
⍝> 2
⍝> 7
⍝> 395
m←5 2⍴1 2 3 4 1 2 5 6 3 4
m⍳3 2⍴3 4 9 9 1 2
m⍳5 6
∪m
≠m
(0 2⍴0)⍳2 2⍴1
(3 0⍴0)⍳2 0⍴0
c←4 3⍴'abcdefabcxyz'
c⍳'abc'
c⍳2 3⍴'xyzdef'
(2 2⍴0.1 0.2 0.3 0.4)⍳1 2⍴(0.1+0.2) 0.4
n←100 2⍴⍳7
≢∪n
+/n⍳n
