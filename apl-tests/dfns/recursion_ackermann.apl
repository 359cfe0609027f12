⍝ Ackermann's function, dyadic and through ∇: its inner call `⍺ ∇ ⍵-1` is not a tail call. By hand, A(1,n) = n+2,
⍝ A(2,n) = 2n+3 and A(3,n) = 2^(n+3)-3: 2 ack 3 is 9, 1 ack 5 is 7, 3 ack 3 is 61 and 3 ack 4 is 125.
⍝> 9
⍝> 7
⍝> 61
⍝> 125
ack←{⍺=0:⍵+1 ⋄ ⍵=0:(⍺-1)∇ 1 ⋄ (⍺-1)∇ ⍺ ∇ ⍵-1}
a←2 ⎕ArgInt 1
⎕←a ack 3
⎕←(a-1) ack 5
⎕←(a+1) ack 3
⎕←(a+1) ack a+2
