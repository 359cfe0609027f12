⍝ ⊤ with a scalar radix: the result has the right argument's shape (the radix's shape, empty, before it), each item
⍝ its last digit in that radix. Checked by hand: 123 and 45 end in 3 and 5; 7 9 4 are odd, odd, even; 2⊤5 is the
⍝ scalar 1; 3×⍳4 is 3 6 9 12, whose last decimal digits are 3 6 9 2.
⍝> 3 5
⍝> 1 1 0
⍝> 0
⍝> 1
⍝> 2 4
⍝> 6 8
⍝> 3 6 9 2
10⊤123 45
2⊤7 9 4
⍴⍴2⊤5
2⊤5
10⊤2 2⍴12 34 56 78
n←3 ⎕ArgInt 1
10⊤n×⍳4
