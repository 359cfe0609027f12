⍝ n-wise reduction ⍺ f/ ⍵ (prelude nwise_reduce): f/ of each window of ⍺ consecutive items along the last axis (the
⍝ first for ⌿), the items of each window reversed for a negative ⍺. Checked by hand: pairwise sums of 1 2 3 4 are
⍝ 3 5 7; differences 1-4 4-9 9-16 are ¯3 ¯5 ¯7, reversed 3 5 7; sums of three of ⍳6: 6 9 12 15; products of three
⍝ of 1 2 3 4: 6 24; windows of one are the items; windows of none give 1+3 identity items (0); windows of four in
⍝ three items: none. Pairs along the rows of 2 4⍴⍳8: 3 5 7 and 11 13 15; along the columns of 3 2⍴⍳6: 4 6 and
⍝ 8 10. With a dfn and a size read at run time (2): 3 5 7 9. Doubles: 0.5×(1.5+2.5) style means of 1 2 4: 1.5 3.
⍝ The function applies to the items of each window, not to whole shifted arrays: {⍺+⍵×≢⍵} on the pairs of 1 2 3 4
⍝ sees ≢⍵ = 1, so 1+2, 2+3, 3+4 (whole arrays of 3 items gave 7 11 15). 3,/ of 1..6 is the nested vector of the four
⍝ windows (1 2 3)(2 3 4)(3 4 5)(4 5 6), shown as Dyalog shows one.
⍝> 3 5 7
⍝> ¯3 ¯5 ¯7
⍝> 3 5 7
⍝> 6 9 12 15
⍝> 6 24
⍝> 1 2 3
⍝> 0 0 0 0
⍝> 0
⍝>  3  5  7
⍝> 11 13 15
⍝> 4  6
⍝> 8 10
⍝> 3 5 7 9
⍝> 1.5 3
⍝> 3 5 7
⍝>  1 2 3  2 3 4  3 4 5  4 5 6
2+/1 2 3 4
2-/1 4 9 16
¯2-/1 4 9 16
3+/⍳6
3×/1 2 3 4
1+/1 2 3
0+/1 2 3
⍴4+/1 2 3
2+/2 4⍴⍳8
2+⌿3 2⍴⍳6
n←2 ⎕ArgInt 1
n{⍺+⍵}/⍳5
(2+/1 2 4)÷2
2{⍺+⍵×≢⍵}/1 2 3 4
3,/1 2 3 4 5 6
