⍝ Black-Scholes European call with the classic polynomial approximation of the normal CDF
⍝ strike 100, rate 0.05, volatility 0.2, one year, spot 90 100 110
⍝ prices (python3, same formula): 5.091217303105, 10.450575619322, 17.662954284325
⍝ 1000× prices: 5091.217 10450.576 17662.954 → rounded 5091 10451 17663; 1000× sum 33204.747 → 33205
⍝ the at-the-money price to 10 significant digits: 10.45057562
⍝> 5091 10451 17663
⍝> 33205
⍝> 10.45057562
cnd←{
  l←|⍵
  k←÷1+0.2316419×l
  p←k×0.31938153+k×¯0.356563782+k×1.781477937+k×¯1.821255978+k×1.330274429
  w←1-(÷(○2)*0.5)×(*-(l×l)÷2)×p
  w+(⍵<0)×1-2×w
}
call←{
  s←⍵ ⋄ x←100 ⋄ r←0.05 ⋄ v←0.2 ⋄ t←1
  d1←((⍟s÷x)+t×r+(v×v)÷2)÷v×t*0.5
  d2←d1-v×t*0.5
  (s×cnd d1)-x×(*-r×t)×cnd d2
}
prices←call 90 100 110
⌊0.5+1000×prices
⌊0.5+1000×+/prices
prices[2]
