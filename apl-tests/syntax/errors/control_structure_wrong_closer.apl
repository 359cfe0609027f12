∇ R←F X
  :If X>0
    R←1
  :EndWhile
∇
