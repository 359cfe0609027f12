⍝ ⍺ (f@I) ⍵: the items of ⍵ that I selects (indices, or a mask function of ⍵) replaced by ⍺ f applied to them.
⍝ Checked by hand: 10+2 3 is 12 13; ≠∘5 selects 1 and 2, 0× gives 0s; 1 2-10 30 is ¯9 ¯28.
⍝> 1 12 13 4
⍝> 0 5 0
⍝> ¯9 20 ¯28
10(+@2 3)⍳4
0(×@(≠∘5))1 5 2
1 2(-@1 3)10 20 30
