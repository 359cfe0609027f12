⍝ The glyphs other APL systems and papers print (APL2, GNU APL, ISO) read as Dyalog's: ⋆ is *, − is -, ∣ is |,
⍝ ∼ is ~, ρ ι α ω are ⍴ ⍳ ⍺ ⍵, ∕ ∖ are / \, ^ is ∧, ∈ is ∊, ⨯ is ×, □ is ⎕, ◇ is ⋄.
⍝> 1024
⍝> ¯3
⍝> ¯3
⍝> 5 3
⍝> 0 1
⍝> 6
⍝> 12
⍝> 6
⍝> 4 0 5
⍝> 1 0 0
⍝> 1
⍝> 10
⍝> 6
⍝> −⋆
2⋆10
7−10
−3
∣¯5 3
∼1 0
ρι6
3 {α×ω} 4
□←2×3
1 0 1∖4 5 ◇ 1 1 0^1 0 0
2∈1 2 3
+∕ι4
2⨯3
'−⋆'
