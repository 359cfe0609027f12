⍝ Matrices seen as lists of rows: ⍳ finds rows (a vector is one row; 1+≢⍺ for a row not there), ∪ keeps the first
⍝ occurrence of each row, ≠ marks it, and 1 1⍉ is the diagonal. Checked by hand: names has the rows alice, bob,
⍝ carol, alice; carol is row 3; bob is row 2 and dave is none (5); the unique rows are the first three; the mask
⍝ 1 1 1 0; the diagonal of 3 3⍴⍳9 is 1 5 9, of 2 3⍴⍳6 is 1 5 (sum 6); the unique rows of 1 2/1 2/3 4.
⍝> 3
⍝> 2 5
⍝> alice
⍝> bob
⍝> carol
⍝> 1 1 1 0
⍝> 1 5 9
⍝> 6
⍝> 1 2
⍝> 3 4
names←4 5⍴'alicebob  carolalice'
names⍳'carol'
names⍳2 5⍴'bob  dave '
∪names
≠names
1 1⍉3 3⍴⍳9
+/1 1⍉2 3⍴⍳6
∪3 2⍴1 2 1 2 3 4
