⍝ reshape to a zero length gives an empty vector (an empty line)
⍝>
⍝> 0
⍝> 0 3
0⍴5
⍴0⍴5
⍴0 3⍴7
