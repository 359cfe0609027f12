⍝ / \ ⌿ with an axis k of a rank-3 array (src/elab/indexing.rs apply_along_axis: axis k moved last by a transpose,
⍝ and moved back after all but a reduction). a←2 3 4⍴⍳24 has planes of rows 1-4 5-8 9-12 and 13-16 17-20 21-24.
⍝ Checked by hand: +/[2] sums each plane's rows (1+5+9 = 15, ..., 13+17+21 = 51, ...); +\[2] runs down them (1, 1+5,
⍝ 1+5+9); 1 0 1/[2] keeps rows 1 and 3 of each plane; 2+/[2] adds neighbouring rows (1+5 = 6, 5+9 = 14, 13+17 = 30,
⍝ 17+21 = 38); ⌈⌿[2] of a matrix is its row maxima 3 6.
⍝> 15 18 21 24
⍝> 51 54 57 60
⍝>  1  2  3  4
⍝>  6  8 10 12
⍝> 15 18 21 24
⍝>
⍝> 13 14 15 16
⍝> 30 32 34 36
⍝> 51 54 57 60
⍝>  1  2  3  4
⍝>  9 10 11 12
⍝>
⍝> 13 14 15 16
⍝> 21 22 23 24
⍝>  6  8 10 12
⍝> 14 16 18 20
⍝>
⍝> 30 32 34 36
⍝> 38 40 42 44
⍝> 3 6
a←2 3 4⍴⍳24
+/[2]a
+\[2]a
1 0 1/[2]a
2+/[2]a
⌈⌿[2]2 3⍴⍳6
