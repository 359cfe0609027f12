⍝ An int +/ is the exact sum: partial sums beyond the int range do not matter (4611686018427387904 is 2*62), only
⍝ the sum itself does. 4096 copies of 2*62 followed by as many of ¯2*62 sum to 0 (the first 4096 alone, a chunk of a
⍝ compiled parallel reduction, sum to 2*74); three copies of 2*62 do not fit.
⍝ Integers beyond 32 bits print as Dyalog prints them, as doubles at ⎕PP 10 (README, display).
⍝> 0
⍝> 9.223372037E18
⍝> 0 0
⍝! DOMAIN ERROR at 13:1
p←4611686018427387904
⎕←+/(4096⍴p),4096⍴-p
⎕←+/p p (-p) (p-1)
⎕←+/2 4⍴p p (-p) (-p)
+/3⍴p
