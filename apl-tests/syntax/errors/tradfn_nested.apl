∇ R←Outer X
  ∇ R←Inner X
    R←X
  ∇
  R←X
∇
