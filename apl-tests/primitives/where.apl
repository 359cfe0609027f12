⍝ monadic ⍸ lists the indices of the ones; with small integers it repeats each index that many times
⍝> 1 3 4
⍝>
⍝> 1 1 3
⍸1 0 1 1 0
⍸0 0
⍸2 0 1
