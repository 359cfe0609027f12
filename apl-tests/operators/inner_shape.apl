⍝ the shape of an inner product drops the inner axes: (2 3)(3 4) gives 2 4
⍝> 2 4
⍝> 3 3 3 3
⍝> 3 3 3 3
⍴(2 3⍴1)+.×3 4⍴1
(2 3⍴1)+.×3 4⍴1
