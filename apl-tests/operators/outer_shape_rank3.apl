⍝ an outer product of a matrix and a vector has rank 3; (2 3⍴⍳6)∘.×1 10, plane i row j is ⍵[i;j]×1 10
⍝> 2 3 2
⍝> 6 60
⍴(2 3⍴⍳6)∘.×1 10
((2 3⍴⍳6)∘.×1 10)[2;3;]
