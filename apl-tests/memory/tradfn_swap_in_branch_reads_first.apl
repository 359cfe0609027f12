⍝ A swap through a temporary in an :If in nested :For loops (bubble sort): T←V[J] is read where it is bound, before
⍝ V[J]←V[J+1] stores into V's block in place, so the branch needs no copy. The one copy left refills the inner loop's
⍝ state from the outer loop's once per outer pass (N copies of N items, as many as the comparisons cost anyway).
⍝ By hand: 6 5 4 3 2 1 sorted.
⍝> 1 2 3 4 5 6
⍝# mem copies 1
N←6 ⎕ArgInt 1
∇ R←BSORT V;I;J;T;N
  N←≢V
  :For I :In ⍳N-1
      :For J :In ⍳N-I
          :If V[J]>V[J+1]
              T←V[J] ⋄ V[J]←V[J+1] ⋄ V[J+1]←T
          :EndIf
      :EndFor
  :EndFor
  R←V
∇
BSORT ⌽⍳N
