⍝ A ⍣ step that updates its state with an indexed assignment (r[i;]←…) stores into the state's block: no copy of
⍝ the state per step, and no second buffer. Row i of the 4×3 result is i×1 2 3 (rows 1-3 set by the steps, row 4
⍝ stays 4 8 12 from the start); the sum is (1+2+3+4)×6 = 60.
⍝> 1 2  3
⍝> 2 4  6
⍝> 3 6  9
⍝> 4 8 12
⍝> 60
⍝# mem copies 0
⍝# mem allocs-in-loops 0
step←{(i r)←⍵ ⋄ r[i;]←i×1 2 3 ⋄ (i+1)r}
(i r)←step⍣3⊢1(4 3⍴0 0 0 0 0 0 0 0 0 4 8 12)
r
+/,r
