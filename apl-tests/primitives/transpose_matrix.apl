⍝ monadic ⍉ transposes a matrix; on a vector it is the identity
⍝> 1 4
⍝> 2 5
⍝> 3 6
⍝> 3 2
⍝> 1 2 3
⍉2 3⍴⍳6
⍴⍉2 3⍴⍳6
⍉1 2 3
