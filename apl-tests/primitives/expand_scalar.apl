⍝ Expand of a scalar: the scalar goes into every slot the mask selects, fills elsewhere (0 for numbers, a blank for
⍝ characters); with counts, each positive count's slot repeats it. Checked by hand.
⍝> 5 0 5
⍝> a a
⍝> 0 0
⍝> 4
⍝> 2.5 2.5 0 2.5
⍝> 3 0 0 3
1 0 1\5
1 0 1\'a'
0 0\7
m←1 1 0 1
⍴m\2.5
m\2.5
1 ¯2 1\3
