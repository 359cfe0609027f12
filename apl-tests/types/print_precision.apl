⍝ ⎕PP sets the number of significant digits printed
⍝> 0.33333
⍝> 3.1416
⍝> 0.143
⍝> 3.14159265358979
⎕PP←5
÷3
○1
⎕PP←3
÷7
⎕PP←15
○1
