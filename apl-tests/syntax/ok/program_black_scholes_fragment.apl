⍝ cumulative normal distribution (approximation)
cnd←{
  ⍝: <double>ρ → <double>ρ
  L←|⍵
  K←÷1+0.2316419×L
  a←0.31938153 ¯0.356563782 1.781477937 ¯1.821255978 1.330274429
  R←1-(÷(○2)*0.5)×(*-L×L÷2)×+⌿a∘.×K*⍳5
  (⍵<0)⌽R,[0.5]1-R
}
