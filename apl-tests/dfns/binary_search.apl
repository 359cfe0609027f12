⍝ tail-recursive binary search in a sorted vector: the index of 23 (or 0 if absent)
⍝> 5
⍝> 0
⍝> 1
v←2 3 5 11 23 42 99
find←{
  ⍺←1 (≢v)
  lo←⍺[1] ⋄ hi←⍺[2]
  lo>hi:0
  mid←⌊(lo+hi)÷2
  v[mid]=⍵:mid
  v[mid]<⍵:(mid+1)hi ∇ ⍵
  lo(mid-1)∇ ⍵
}
find 23
find 4
find 2
