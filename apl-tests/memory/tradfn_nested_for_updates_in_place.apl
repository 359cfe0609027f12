⍝ A tradfn's :For in a :For updating a matrix by index: the inner loop updates the outer loop's state in place (no
⍝ copy of the matrix per row: update-refilled-states-in-place), and each store is in place.
⍝> 36
⍝# mem copies 0
⍝# mem allocs-in-loops 0
N←3 ⎕ArgInt 1
∇ M←TABLE N;I;J
  M←N N⍴0
  :For I :In ⍳N
      :For J :In ⍳N
          M[I;J]←I×J
      :EndFor
  :EndFor
∇
+/,TABLE N
