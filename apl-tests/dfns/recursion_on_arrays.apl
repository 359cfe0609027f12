⍝ Recursion on arrays that is neither unfolded on constants nor all tail calls: the recursive function takes and
⍝ returns arrays of a fixed rank, any shape. Worked by hand with n=4:
⍝ - sum adds the first item to the sum of the rest: +/⍳4 = 10.
⍝ - quicksort (the classic dfn) of 3 1 4 1 5 9 2 6 5 3 5: 1 1 2 3 3 4 5 5 5 6 9.
⍝ - rev moves the first item to the end, recursively: ⌽⍳4 = 4 3 2 1.
⍝ - squares builds (∇ ⍵-1),⍵×⍵ from ⍬: 1 4 9 16.
⍝ - mpow squares 2 2⍴1 three times: 2 2⍴2, then 8, then 128 in each position (a matrix result).
⍝ - cap adds the script's v (⍳4) at each level: 3×v = 3 6 9 12.
⍝ - digits catenates the first digit of each ⍕k for k = 1..9: the characters 123456789.
⍝ - lens lists ≢⍵ as ⍵ shrinks: for ⍳k that is k k-1 … 1, whose sum is k(k+1)÷2: for k = 1 2 3 4, 1 3 6 10.
⍝ - moves (two recursive calls and a matrix): h(a,0) is empty, h(a,k) = h(a,k-1) ⍪ (a k) ⍪ h(a+1,k-1), so
⍝   h(a,1) = (a 1), h(a,2) = (a 1)(a 2)(a+1 1), and 1 moves 3 = (1 1)(1 2)(2 1)(1 3)(2 1)(2 2)(3 1), one per row.
⍝ - depth recurses 3000 times on shrinking vectors (a block per level): 3000.
⍝> 10
⍝> 1 1 2 3 3 4 5 5 5 6 9
⍝> 4 3 2 1
⍝> 1 4 9 16
⍝> 128 128
⍝> 128 128
⍝> 3 6 9 12
⍝> 123456789
⍝> 1 3 6 10
⍝> 1 1
⍝> 1 2
⍝> 2 1
⍝> 1 3
⍝> 2 1
⍝> 2 2
⍝> 3 1
⍝> 3000
n←4 ⎕ArgInt 1
sum←{0=≢⍵:0 ⋄ (⊃⍵)+sum 1↓⍵}
sum ⍳n
qs←{1≥≢⍵:⍵ ⋄ p←⍵[⌈(≢⍵)÷2] ⋄ (∇(⍵<p)/⍵),((⍵=p)/⍵),∇(⍵>p)/⍵}
qs 3 1 4 1 5 9 2 6 5 3 5+0×n
rev←{0=≢⍵:⍵ ⋄ (∇ 1↓⍵),1↑⍵}
rev ⍳n
squares←{⍵=0:⍬ ⋄ (∇ ⍵-1),⍵×⍵}
squares n
mpow←{⍵=0:2 2⍴1 ⋄ m←∇ ⍵-1 ⋄ m+.×m}
mpow n-1
v←⍳n
cap←{⍵=0:v ⋄ v+∇ ⍵-1}
cap n-2
digits←{0=⍵:'' ⋄ (∇ ⍵-1),⊃⍕⍵}
digits n+5
lens←{0=≢⍵:⍬ ⋄ (≢⍵),∇ 1↓⍵}
{+/lens ⍳⍵}¨⍳n
moves←{⍵=0:0 2⍴0 ⋄ (⍺ ∇ ⍵-1)⍪(1 2⍴⍺ ⍵)⍪(⍺+1)∇ ⍵-1}
1 moves n-1
depth←{0=≢⍵:0 ⋄ 1+∇ 1↓⍵}
depth ⍳3000+0×n
