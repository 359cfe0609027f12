⍝ ∘.+ of a 2-vector and a 3-vector is a 2 by 3 matrix
⍝> 11 21 31
⍝> 12 22 32
⍝> 2 3
1 2∘.+10 20 30
⍴1 2∘.+10 20 30
