∇ R←F X
Loop:X←X-1
  R←X
∇
