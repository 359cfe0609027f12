⍝ dyadic ⍉ on rank 3: axis i of the argument becomes axis L[i] of the result
⍝ 1 3 2⍉A swaps the last two axes: R[a;b;c]=A[a;c;b], so each plane of 2 2 2⍴⍳8 is transposed
⍝> 1 3
⍝> 2 4
⍝>
⍝> 5 7
⍝> 6 8
1 3 2⍉2 2 2⍴⍳8
