⍝ R starts as a scalar and becomes a vector in the loop: a loop's variables keep one rank (R←⍬ would do).
⍝! NONCE ERROR at 6:3
P←7 ⎕ArgInt 1
∇ R←H N
  R←0
  :While N>0
      R←R,N
      N-←1
  :EndWhile
∇
H P
