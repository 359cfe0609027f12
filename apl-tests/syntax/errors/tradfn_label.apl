∇ R←F X
  :If X>0
Inner: R←X
  :EndIf
Twice: R←0
Twice: R←1
EndIf: R←2
∇
