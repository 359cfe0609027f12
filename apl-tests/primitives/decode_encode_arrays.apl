⍝ ⊥ and ⊤ on arrays of any rank (Dyalog): ⍺⊥⍵ decodes each vector along the first axis of ⍵ with each vector along
⍝ the last axis of ⍺ (a scalar radix is extended); ⍺⊤⍵ has shape (⍴⍺),⍴⍵, the digits along the first axis.
⍝> 3 1 2
⍝> 13 24
⍝> 13 24
⍝> 17
⍝> 10000
⍝> 7
⍝> 0 0
⍝> 0 1
⍝>
⍝> 0 1
⍝> 1 0
⍝>
⍝> 1 0
⍝> 1 0
⍝> 15 26
⍝> 37 48
2⊥2 3⍴1 0 1 1 1 0
(2 2⍴2 10 2 10)⊥2 2⍴1 2 3 4
10⊥1.5 2
24 60 60⊥2 46 40
2 2 2⊥1
2 2 2⊤2 2⍴⍳4
10⊥2 2 2⍴⍳8 ⍝ planes (1 2/3 4) and (5 6/7 8): 10×first+second
