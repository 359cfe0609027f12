⍝ Every prefix of an int +\ must fit (each is an item of the result); 2⊥63⍴1 is 2*63 minus 1 and fits, 2⊥64⍴1 does
⍝ not: DOMAIN ERROR, not a wrapped number.
⍝ Integers beyond 32 bits print as Dyalog prints them, as doubles at ⎕PP 10 (README, display).
⍝> 4.611686018E18 9.223372037E18
⍝> 9.223372037E18
⍝! DOMAIN ERROR
p←4611686018427387904
⎕←+\p (p-1)
⎕←2⊥63⍴1
2⊥64⍴1
