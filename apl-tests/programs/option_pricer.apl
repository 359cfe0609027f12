⍝ a binomial-tree (Cox-Ross-Rubinstein) price of a European call: spot 100, strike 100, rate 0.05, volatility 0.2, 1 year
⍝ u = e*0.2×(1÷n)*0.5, d = ÷u, p = ((e*0.05÷n)-d)÷u-d; terminal payoffs 0⌈(100×u^j×d^(n-j))-100,
⍝ then n backward steps v[j] ← disc×(p×v[j+1])+(1-p)×v[j] (1⌽ keeps the length; the wrapped item is never used)
⍝ python3 (same recurrence): n=3 → 11.043871091951, n=4 → 9.970522921901 (Black-Scholes limit 10.4506)
⍝> 11.04387109
⍝> 9.970522922
price←{
  n←⍵
  s0←100 ⋄ k←100 ⋄ r←0.05 ⋄ sigma←0.2 ⋄ t←1
  dt←t÷n
  u←*sigma×dt*0.5
  d←÷u
  p←((*r×dt)-d)÷u-d
  disc←*-r×dt
  j←0,⍳n
  v←0⌈(s0×(u*j)×d*n-j)-k
  back←{disc×(p×1⌽⍵)+(1-p)×⍵}
  ⊃back⍣n⊢v
}
price 3
price 4
