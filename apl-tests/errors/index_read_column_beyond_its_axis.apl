⍝ Reading a column index beyond its axis is an INDEX ERROR, although its row-major offset (row 1, column 3 of a
⍝ 2×2 matrix) is a place in the array (row 2, column 1). The index is computed, so no constant folding sees it.
⍝! INDEX ERROR at 6:1
m←2 2⍴⍳4
i←3 1+0×⍳2
m[1;i]
