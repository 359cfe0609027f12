∇ R←F X
  R←0
  :If X>0
  :AndIf X<10
  :OrIf X=100
    R←1
  :EndIf
∇
