⍝ matrix inverse by Gauss-Jordan elimination written in APL, with a tail-recursive loop over pivots
⍝ A = [1 2 3; 0 1 4; 5 6 0] has determinant 1 and integer inverse [¯24 18 5; 20 ¯15 ¯4; ¯5 4 1]
⍝ every pivot is 1 (1, then 1, then 1 after row 3 becomes 0 ¯4 ¯15 → 0 0 1), so every double is an exact integer
⍝ a step with pivot k: p←row k ÷ pivot; subtract (column k - unit k) ∘.× p, which leaves p in row k
⍝> ¯24  18  5
⍝>  20 ¯15 ¯4
⍝>  ¯5   4  1
⍝> 1 0 0
⍝> 0 1 0
⍝> 0 0 1
A←3 3⍴1 2 3 0 1 4 5 6 0
gj←{
  k←⍺
  n←≢⍵
  p←⍵[k;]÷⍵[k;k]
  ⍵-(⍵[;k]-k=⍳n)∘.×p
}
inv←{
  n←≢⍵
  m←⍵,(⍳n)∘.=⍳n
  loop←{⍺>n:⍵ ⋄ (⍺+1)∇ ⍺ gj ⍵}
  (0,n)↓1 loop m
}
B←inv A
B
A+.×B
