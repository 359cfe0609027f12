⍝ ⍋ on a matrix grades its rows lexicographically: rows (3 1) (1 2) (1 1) sort as row 3, row 2, row 1
⍝> 3 2 1
⍝> 1 2 3
⍋3 2⍴3 1 1 2 1 1
⍒3 2⍴3 1 1 2 1 1
