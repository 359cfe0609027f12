⍝ Looking up a row of another length than the matrix's rows: LENGTH ERROR.
⍝! LENGTH ERROR
names←2 5⍴'alicebob  '
names⍳'bob'
