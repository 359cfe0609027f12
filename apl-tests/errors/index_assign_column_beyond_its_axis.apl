⍝ A column index beyond its axis is an INDEX ERROR, although its row-major offset (row 1, column 3 of a 2×2
⍝ matrix) is a place in the array (row 2, column 1).
⍝! INDEX ERROR at 5:1
m←2 2⍴0
m[1;3 1]←7 8
m
