∇ R←(F Twice) X
  R←F F X
∇
