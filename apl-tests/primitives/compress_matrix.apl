⍝ / on a matrix compresses columns (last axis), ⌿ compresses rows (first axis)
⍝> 1 3
⍝> 4 6
⍝> 1 2 3
1 0 1/2 3⍴⍳6
1 0⌿2 3⍴⍳6
