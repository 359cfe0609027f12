⍝ monadic ≢ counts the major cells; a scalar has tally 1
⍝> 3
⍝> 2
⍝> 1
⍝> 0
≢1 2 3
≢2 5⍴0
≢5
≢''
