⍝ monadic ? (roll): only properties of the random result are printed
⍝> 10
⍝> 1
⍝> 1
≢?10⍴6
r←?100⍴6
∧/(r≥1)∧r≤6
∧/r=⌊r
