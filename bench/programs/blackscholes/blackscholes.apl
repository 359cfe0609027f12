⍝ blackscholes: European call prices (Black-Scholes, normal CDF by the Abramowitz-Stegun 26.2.17 polynomial) for N
⍝ options with spot 100, strikes 50..150, maturities 0.25..1 years, rate 2%, volatility 30%; prints the sum of prices.
⍝ Checked by hand: for N=1 (strike 50, maturity 0.5) d1 = 3.4207, d2 = 3.2086 and the exact-CDF price is 50.499296
⍝ (computed apart with erf); with the polynomial CDF, C and NumPy both print 50.49929398 for N=1.
N←10000000 ⎕ArgInt 1
I←⍳N
S←100
K←50+(I-1)×100÷N
T←0.25×1+4|I
r←0.02
v←0.3
cnd←{
  L←|⍵
  q←÷1+0.2316419×L
  w←1-(÷(○2)*0.5)×(*¯0.5×L×L)×q×0.31938153+q×¯0.356563782+q×1.781477937+q×¯1.821255978+q×1.330274429
  (w×⍵≥0)+(1-w)×⍵<0
}
sqrtT←T*0.5
d1←((⍟S÷K)+T×r+0.5×v×v)÷v×sqrtT
d2←d1-v×sqrtT
⎕←+/(S×cnd d1)-K×(*-r×T)×cnd d2
