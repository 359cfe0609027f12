∇ R←F X
  :While X>0
    X←X-1
  R←X
∇
