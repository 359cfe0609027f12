⍝ f∘g monadic is f g ⍵; dyadic ⍺ f∘g ⍵ is ⍺ f (g ⍵)
⍝> ¯3 ¯4
⍝> 4 3 2 1
⍝> 7
(-∘|)¯3 4
(⌽∘⍳)4
10-∘|¯3
