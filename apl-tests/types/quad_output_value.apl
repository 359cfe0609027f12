⍝ ⎕←x is itself a value that can be used further: 5 is printed by ⎕←, then the statement prints 1+5
⍝> 5
⍝> 6
1+⎕←5
