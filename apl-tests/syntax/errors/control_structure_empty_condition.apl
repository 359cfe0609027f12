∇ R←F X
  :If
    R←1
  :EndIf
∇
