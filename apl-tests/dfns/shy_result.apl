⍝ A dfn whose statements are all assignments returns its last assignment's value as a shy result: a call of it as a
⍝ statement prints nothing (Dyalog), while ⎕← inside it prints once and the value used by anything else (1+f 3, an
⍝ assignment) is an ordinary value. Checked by hand: the mean of 1 2 3 4 is 2.5; f 3 is 6, so 1+f 3 is 7; f 5 is 10.
⍝> Mean: 2.5
⍝> 7
⍝> 4
⍝> 10
⍝> 8
report←{⎕←'Mean: ',⍕(+/⍵)÷≢⍵}
report 1 2 3 4
f←{a←⍵×2}
f 3
1+f 3
{⎕←⍵}4
x←f 5
x
g←{⍵×2}
g 4
