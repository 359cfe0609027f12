⍝ ⍺⍋⍵ and ⍺⍒⍵ with a collating sequence ⍺ (a vector): characters ordered by their positions in ⍺, those not in ⍺
⍝ after the rest, equal keys in their order; a matrix's rows compare position by position. Checked by hand: the keys
⍝ of 'cabbage' in 'abc' are 3 1 2 2 1 4 4; of 'xyz' in 'zyx' 3 2 1; a case-insensitive sort puts Apple first.
⍝> 2 5 3 4 1 6 7
⍝> 3 2 1
⍝> 3 2 1
⍝> Apple
⍝> banana
⍝> cherry
⍝> 1 3 2
'abc'⍋'cabbage'
'zyx'⍋'xyz'
cs←'aAbBcCdDeE'
cs⍋'bAa'
w←3 6⍴'banana','Apple ','cherry'
w[cs⍋w;]
'abc'⍒'cab'
