⍝ Recursion that is neither unfolded on constants nor all tail calls, whose recursive call changes the rank of ⍵
⍝ (a vector, then a 1-by-1 matrix): a recursive function has arguments of one rank, so this is not supported,
⍝ reported at the call.
⍝! NONCE ERROR at 7:1
n←5 ⎕ArgInt 1
g←{0=≢⍵:0 ⋄ 1+g 1 1⍴1↓,⍵}
g ⍳n
