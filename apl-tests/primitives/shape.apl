⍝ monadic ⍴ gives the shape; the shape of a scalar is empty (an empty line)
⍝> 2 3
⍝> 5
⍝>
⍝> 0
⍝> 2 3 4
⍴2 3⍴⍳6
⍴⍳5
⍴5
≢⍴5
⍴2 3 4⍴0
