⍝ Recursion whose condition is only known when the program runs becomes a recursive function, which cannot change
⍝ a global: COUNTING assigns CALLS.
⍝! NONCE ERROR at 10:1
P←7 ⎕ArgInt 1
∇ R←COUNTING N
  CALLS+←1
  :If N>0 ⋄ R←COUNTING N-1 ⋄ :Else ⋄ R←0 ⋄ :EndIf
∇
CALLS←0
COUNTING P
