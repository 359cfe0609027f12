⍝ (⊂I)⌷A with an index beyond A's first axis: INDEX ERROR.
⍝! INDEX ERROR
m←3 2⍴⍳6
i←4
(⊂i)⌷m
