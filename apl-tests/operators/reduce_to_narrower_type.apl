⍝ Reducing or scanning with a function whose result is narrower than its arguments: = < ≠ of ints give bools, and
⍝ the fold goes on comparing that bool (as 0 or 1) with the next int, from the right as always.
⍝ Worked by hand: =/1 2 3 is 1=(2=3) = 1=0 = 0; ≠/1 2 2 is 1≠(2≠2) = 1≠0 = 1; =/,5 is 5 (one item, nothing to
⍝ compare); =\1 2 3 is 1, 1=2, 1=(2=3) = 1 0 0; <\3 1 2 is 3, 3<1, 3<(1<2) = 3 0 0; =/⍬ is = 's identity 1; =⌿ of the
⍝ rows 1 2 3 and 1 5 3 compares the columns: 1 0 1; ~=/1 2 3 is ~0 = 1.
⍝> 0
⍝> 1
⍝> 5
⍝> 1 0 0
⍝> 3 0 0
⍝> 1
⍝> 1 0 1
⍝> 1
=/1 2 3
≠/1 2 2
=/,5
=\1 2 3
<\3 1 2
=/⍬
=⌿2 3⍴1 2 3 1 5 3
~=/1 2 3
