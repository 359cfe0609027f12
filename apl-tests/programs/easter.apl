⍝ Easter Sunday (Gregorian, the anonymous/Meeus algorithm) for a vector of years, printed as yyyymmdd
⍝ known dates: 2000-04-23, 2019-04-21, 2024-03-31, 2025-04-20, 2026-04-05
⍝ worked for 2024: a=10 b=20 c=24 d=5 e=0 f=1 g=6 h=30|(190+20-5-6+15)=30|214=4 i=6 k=0
⍝ l=7|(32+0+12-4-0)=7|40=5 m=⌊(10+44+110)÷451=0 n=114+4+5-0=123, month ⌊123÷31=3, day 1+31|123=1+30=31
⍝> 20000423 20190421 20240331 20250420 20260405
easter←{
  a←19|⍵
  b←⌊⍵÷100
  c←100|⍵
  d←⌊b÷4
  e←4|b
  f←⌊(b+8)÷25
  g←⌊(1+b-f)÷3
  h←30|15+(19×a)+b-d+g
  i←⌊c÷4
  k←4|c
  l←7|32+(2×e)+(2×i)-h+k
  m←⌊(a+(11×h)+22×l)÷451
  n←114+h+l-7×m
  month←⌊n÷31
  day←1+31|n
  (10000×⍵)+(100×month)+day
}
easter 2000 2019 2024 2025 2026
