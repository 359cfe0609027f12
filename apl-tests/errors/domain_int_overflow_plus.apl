⍝ An int sum beyond the 64-bit range is a DOMAIN ERROR, never a wrapped (negative) number. Dyalog would switch to
⍝ floating point; a typed compiler cannot change an int to a double at run time (README, known limits).
⍝ 9223372036854775806+1 is 2*63 minus 1, the largest int.
⍝ Integers beyond 32 bits print as Dyalog prints them, as doubles at ⎕PP 10 (README, display).
⍝> 9.223372037E18
⍝! DOMAIN ERROR at 9:2
x←9223372036854775806
⎕←x+1
x+2
