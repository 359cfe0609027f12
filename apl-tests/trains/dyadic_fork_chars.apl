⍝ a dyadic fork on strings: ⍺ (⊣,⊢) ⍵ is ⍺,⍵ and ⍺ (⊢,⊣) ⍵ is ⍵,⍺
⍝> abcd
⍝> cdab
'ab'(⊣,⊢)'cd'
'ab'(⊢,⊣)'cd'
