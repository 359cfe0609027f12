∇ R←F X
  R←X
  :If X>0
    :Leave
  :EndIf
∇
