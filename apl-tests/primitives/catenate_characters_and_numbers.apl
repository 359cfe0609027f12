⍝ ⍺,⍵ of characters and numbers is a simple mixed vector, as in Dyalog: its characters show side by side, a blank
⍝ beside each number. Checked by hand: 'Total:' and 42 make 7 items, the second 'o'.
⍝> x 3.5
⍝> ab 1 2
⍝> 7
⍝> Total: 42
⍝> o
⍝> 1 2 ab
'x',3.5
'ab',1 2
v←'Total:',42
⍴v
v
2⊃v
(1 2),'ab'
