⍝ Recursion whose condition is only known when the program runs cannot be inlined.
⍝! NONCE ERROR at 5:31
P←7 ⎕ArgInt 1
∇ R←FACT N
  :If N≤1 ⋄ R←1 ⋄ :Else ⋄ R←N×FACT N-1 ⋄ :EndIf
∇
FACT P
