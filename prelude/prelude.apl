⍝ Functions that elaboration defines in APL, where APL is the clearest definition. Each is an ordinary dfn, inlined
⍝ at every use like user code. Names here are not visible to user programs.

⍝ ⍺⌽⍵ with one count per row of the matrix ⍵: select from the ravel at rotated column positions.
rotate_rows←{n←⊃⌽⍴⍵ ⋄ cols←n|⍺∘.+¯1+⍳n ⋄ flat←((n×¯1+⍳≢⍵)∘.+0×⍳n)+cols ⋄ (⍴⍵)⍴(,⍵)[1+,flat]}

⍝ ⍺⊤⍵ for a radix vector ⍺ and a vector ⍵: one column of digits per item of ⍵.
encode_vector←{w←⌽×\⌽1↓⍺,1 ⋄ (⍉((≢⍵),≢⍺)⍴⍺)|⍉⌊⍵∘.÷w}

⍝ Greatest common divisor and least common multiple of integers (∨ and ∧ on numbers other than 0 and 1). Euclid's
⍝ steps run on a two-item vector (a loop over an array, which every backend supports).
gcd←{|⊃{(⍵[2]),⍵[2]|⍵[1]}⍣{0=⍺[2]}⊢⍺,⍵}
lcm←{g←⍺ gcd ⍵ ⋄ g=0:0 ⋄ ⌊0.5+⍺×⍵÷g}

⍝ ∪⍵ (unique), ⍺∪⍵ (union) and ⍺∩⍵ (intersection) on vectors, in order of first occurrence.
unique←{((⍳≢⍵)=⍵⍳⍵)/⍵}
union←{⍺,⍵~⍺}
intersection←{(⍺∊⍵)/⍺}
