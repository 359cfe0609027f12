⍝ monadic ⍋ is a stable ascending grade; indexing with it sorts
⍝> 2 4 3 1
⍝> 1 2 5 8
⍝> 2 3 1
⍋3 1 2 1
A←5 2 8 1
A[⍋A]
⍋'cab'
