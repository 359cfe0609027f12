⍝ a train assigned to a name and applied later
⍝> 5
⍝> 4
mean←+/÷≢
mean 2 4 9
mean 4
