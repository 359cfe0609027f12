⍝ local names inside a dfn: (3×2)×(3×2+1) = 6×7
⍝> 42
f←{a←⍵×2 ⋄ b←a+1 ⋄ a×b}
f 3
