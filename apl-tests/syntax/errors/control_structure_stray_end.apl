∇ R←F X
  R←X
  :EndIf
∇
