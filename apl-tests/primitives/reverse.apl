⍝ monadic ⌽ reverses a vector, and the rows of a matrix along the last axis
⍝> 3 2 1
⍝> cba
⍝> 3 2 1
⍝> 6 5 4
⌽1 2 3
⌽'abc'
⌽2 3⍴⍳6
