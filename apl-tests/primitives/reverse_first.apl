⍝ monadic ⊖ reverses the rows (first axis) of a matrix; on a vector it is like ⌽
⍝> 5 6
⍝> 3 4
⍝> 1 2
⍝> 3 2 1
⊖3 2⍴⍳6
⊖1 2 3
