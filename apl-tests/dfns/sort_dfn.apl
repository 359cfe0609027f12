⍝ a sorting dfn using grade and indexing
⍝> 1 2 3
⍝> abc
sort←{⍵[⍋⍵]}
sort 3 1 2
sort 'cab'
