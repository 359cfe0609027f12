⍝ indexing a character vector by the grade of a numeric vector: names ordered by score
⍝> bca
scores←30 10 20
'abc'[⍋scores]
