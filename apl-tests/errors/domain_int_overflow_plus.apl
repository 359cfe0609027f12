⍝ An int sum beyond the 64-bit range is a DOMAIN ERROR, never a wrapped (negative) number. Dyalog would switch to
⍝ floating point; a typed compiler cannot change an int to a double at run time (README, known limits).
⍝ 9223372036854775806+1 is 2*63 minus 1, the largest int.
⍝> 9223372036854775807
⍝! DOMAIN ERROR at 8:2
x←9223372036854775806
⎕←x+1
x+2
