⍝ A dfn's system variables are its own (Dyalog localises them in every dfn): ⎕PP←5 inside f formats ○1 with 5
⍝ digits, and the top level's ⎕PP is 10 again after the call; g's result is shown at the top level, after g
⍝ returned, so with 10 digits; a tradfn that localises ⎕PP likewise. Checked by hand: ○1 is 3.14159265358979…,
⍝ ÷3 is 0.333….
⍝> 3.1416
⍝> 3.141592654
⍝> 0.3333333333
⍝> 0.333
⍝> 0.3333333333
f←{⎕PP←5 ⋄ ⍕⍵}
f ○1
○1
g←{⎕PP←3 ⋄ ⍵}
g ÷3
∇ SHOW X;⎕PP
  ⎕PP←3
  ⎕←X
∇
SHOW ÷3
÷3
