⍝ ,⍉A makes exactly one copy: the ravel of a transposed matrix is not one LMAD over A's block in row-major
⍝ order, so printing it gathers the elements into a new block; ⍉ itself copies nothing.
⍝ A is 100 2 3 4 / 5 6 7 8 / 9 10 11 12; ⍉A is its columns as rows: 100 5 9 / 2 6 10 / 3 7 11 / 4 8 12.
⍝> 100 5 9 2 6 10 3 7 11 4 8 12
⍝# mem copies 1
⍝# mem allocs 2
A←3 4⍴⍳12
A[1;1]←100
,⍉A
