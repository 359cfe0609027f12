⍝ The most negative int, ¯9223372036854775808, has no negation (nor magnitude) in 64 bits: DOMAIN ERROR.
⍝ Integers beyond 32 bits print as Dyalog prints them, as doubles at ⎕PP 10 (README, display).
⍝> ¯9.223372037E18
⍝> 9.223372037E18
⍝! DOMAIN ERROR
x←¯9223372036854775807-1
⎕←x
⎕←|x+1
-x
