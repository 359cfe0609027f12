⍝ :Return inside a loop is not supported (a flag, :Leave, then :Return after the loop is).
⍝! NONCE ERROR at 8:11
P←7 ⎕ArgInt 1
∇ R←G N;I
  R←0
  :For I :In ⍳N
      :If I=3
          :Return
      :EndIf
      R+←I
  :EndFor
∇
G P
