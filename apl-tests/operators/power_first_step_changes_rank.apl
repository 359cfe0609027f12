⍝ f⍣n with a constant n whose first application changes the argument's rank: that application is made before the
⍝ loop, which then runs on the vector (or matrix). Checked by hand: each step of {(0,⍵)+⍵,0} makes the next row of
⍝ Pascal's triangle, so ten steps from 1 give the binomials of 10 (1 10 45 120 210 252 …); ⍪ of a scalar is a 1×1
⍝ matrix and ⍪ of a matrix is itself; ,3 is a one-element vector, shown as 3.
⍝> 1 10 45 120 210 252 210 120 45 10 1
⍝> 1 1
⍝> 3
{(0,⍵)+⍵,0}⍣10⊢1
⍴{⍪⍵}⍣5⊢7
{,⍵}⍣6⊢3
