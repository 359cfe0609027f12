⍝ A run-time error inside a loop of a tradfn points at the primitive.
⍝! INDEX ERROR at 7:10
P←7 ⎕ArgInt 1
∇ R←K N;I
  R←0
  :For I :In ⍳N
      R+←(⍳5)[I]
  :EndFor
∇
K P
