⍝ monadic ⍟ is the natural log, dyadic ⍟ the log in base ⍺; ln 10 = 2.302585092994...
⍝> 0
⍝> 2.302585093
⍝> 3
⍝> 10
⍝> 3
⍝> 2
⍟1
⍟10
2⍟8
2⍟1024
10⍟1000
⍟*2
