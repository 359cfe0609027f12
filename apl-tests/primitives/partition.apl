⍝ ⍺⊂⍵ (partitioned enclose) and ⍺⊆⍵ (partition) of a vector by a constant ⍺, as Dyalog (⎕ML 1): for ⊂ each 1 starts
⍝ a piece (items before the first are left out, two dividers in one place make an empty piece); for ⊆ a piece starts
⍝ where ⍺ rises and items under a 0 are left out; ⊆ of a simple array encloses it, of a nested one leaves it.
⍝ Checked by hand: 'ab' 'cde'; splitting ' the cat sat' at its blanks and dropping each blank; 1 2 2 0 1 gives
⍝ (1)(2 3)(5); 0 1 0 2 0 gives (2 3)(⍬)(4 5), the empty piece shown as nothing between its blanks; a scalar 1 puts
⍝ every item in its own piece; without vowels, th ct st.
⍝>  ab  cde
⍝>  the  cat  sat
⍝>  the  cat  sat
⍝> 3
⍝>  1  2 3  5
⍝>  2 3    4 5
⍝>  a  b  c
⍝>  abc
⍝> 1  2 3
⍝>  th  ct  st
1 0 1 0 0⊂'abcde'
s←'the cat sat'
1↓¨(' '=t)⊂t←' ',s
(' '≠s)⊆s
≢(' '≠s)⊆s
1 2 2 0 1⊆⍳5
0 1 0 2 0⊂⍳5
1⊂'abc'
⊆'abc'
⊆1 (2 3)
{⍵/⍨~⍵∊'aeiou'}¨(' '≠s)⊆s
