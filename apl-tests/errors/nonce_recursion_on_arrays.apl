⍝ Recursion that is neither unfolded on constants nor all tail calls on a vector argument: not supported yet (a
⍝ recursive function takes scalars), reported at the call.
⍝! NONCE ERROR at 6:1
n←5 ⎕ArgInt 1
sum←{0=≢⍵:0 ⋄ (⊃⍵)+sum 1↓⍵}
sum ⍳n
