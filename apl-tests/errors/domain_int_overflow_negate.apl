⍝ The most negative int, ¯9223372036854775808, has no negation (nor magnitude) in 64 bits: DOMAIN ERROR.
⍝> ¯9223372036854775808
⍝> 9223372036854775807
⍝! DOMAIN ERROR
x←¯9223372036854775807-1
⎕←x
⎕←|x+1
-x
