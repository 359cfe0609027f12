⍝ Every prefix of an int +\ must fit (each is an item of the result); 2⊥63⍴1 is 2*63 minus 1 and fits, 2⊥64⍴1 does
⍝ not: DOMAIN ERROR, not a wrapped number.
⍝> 4611686018427387904 9223372036854775807
⍝> 9223372036854775807
⍝! DOMAIN ERROR
p←4611686018427387904
⎕←+\p (p-1)
⎕←2⊥63⍴1
2⊥64⍴1
