⍝ indexing the result of indexing: the second row, then its last item
⍝> 6
m←2 3⍴⍳6
r←m[2;]
r[3]
