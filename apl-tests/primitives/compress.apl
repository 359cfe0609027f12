⍝ a boolean left argument of / selects items
⍝> 1 3
⍝> ace
⍝>
1 0 1 0/1 2 3 4
1 0 1 0 1/'abcde'
0 0 0/1 2 3
