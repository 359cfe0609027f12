⍝ Exact int sums of negative numbers over several 4096-element chunks of a compiled reduction (whose low 32-bit
⍝ halves are recovered from a wrapped sum): 9000 items cycling ¯1 ¯2 ¯3 are 3000 cycles of ¯6, so ¯18000; 5000
⍝ copies of ¯2*62 then as many of 2*62 sum to 0; 3000 cycles of (1-2*62) (2*62) ¯5 are 3000×¯4, plus 3 gives
⍝ ¯11997; the most negative int is a sum that fits, one less is not.
⍝ Integers beyond 32 bits print as Dyalog prints them, as doubles at ⎕PP 10 (README, display).
⍝> ¯18000
⍝> 0
⍝> ¯11997
⍝> ¯9.223372037E18
⍝! DOMAIN ERROR
⎕←+/9000⍴¯1 ¯2 ¯3
⎕←+/(5000⍴¯4611686018427387904),5000⍴4611686018427387904
⎕←+/(9000⍴¯4611686018427387903 4611686018427387904 ¯5),3
⎕←+/¯9223372036854775807 ¯1
+/¯9223372036854775807 ¯2
