⍝ An :If … :ElseIf chain in a loop that updates a vector by index: the second conditional sits in the first one's
⍝ "else" branch and fills a join of its own, which that branch swaps into the first join; the whole nest stores
⍝ into the vector itself (update-joined-states-in-place), so no pass copies it. By hand, ¯5+3×7|⍳20 repeats
⍝ ¯2 1 4 7 10 13 ¯5 (then ¯2 1 4 7 10 13): clamped to 0…10 that is 0 1 4 7 10 10 0, 32 per cycle, 96 in all.
⍝> 96
⍝# mem copies 0
N←20 ⎕ArgInt 1
∇ R←CLAMP V;I
  :For I :In ⍳≢V
      :If V[I]>10 ⋄ V[I]←10
      :ElseIf V[I]<0 ⋄ V[I]←0
      :EndIf
  :EndFor
  R←V
∇
+/CLAMP ¯5+3×7|⍳N
