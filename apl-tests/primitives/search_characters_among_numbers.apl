⍝ ⍳ and ∊ between characters and numbers: no character equals a number, so nothing is found (as in Dyalog, where
⍝ = between them is 0 too). Checked by hand: not found in a vector of length L is L+1; ∊ gives zeros shaped like its
⍝ left argument; n is 3 when running.
⍝> 0 0 0
⍝> 4 4
⍝> 4
⍝> 0 0
⍝> 0 0
⍝> 3 3
⍝> 3 3
⍝> 4 4 4
⍝> 0 0 0
⍝> 0
'abc'∊1 2 3
'abc'⍳1 2
1 2 3⍳'a'
(2 2⍴'abcd')∊⍳3
1 2⍳2 2⍴'ab'
n←3 ⎕ArgInt 1
(n⍴'x')⍳⍳n
(⍳n)∊'xyz'
'a'∊1
