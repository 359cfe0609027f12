⍝ integer square root by bisection, a tail-recursive dfn on integer bounds
⍝ isqrt 17 = 4, isqrt 10000 = 100, isqrt 99 = 9
⍝> 4 100 9
isqrt←{
  ⍺←0 (⍵+1)
  lo←⍺[1] ⋄ hi←⍺[2]
  hi≤lo+1:lo
  mid←⌊(lo+hi)÷2
  (mid×mid)≤⍵:(mid hi)∇ ⍵
  (lo mid)∇ ⍵
}
isqrt¨17 10000 99
