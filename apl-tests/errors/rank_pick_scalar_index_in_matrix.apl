⍝ 1 2⊃M picks item 1 of the matrix M at the first level: a scalar index for an array of rank 2 is a RANK ERROR, as
⍝ in Dyalog ((⊂1 2)⊃M is M[1;2]).
⍝! RANK ERROR at 5:4
M←2 2⍴⍳4
1 2⊃M
