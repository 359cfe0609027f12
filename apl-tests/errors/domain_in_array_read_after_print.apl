⍝ An array whose elements fail is computed where APL computes it: before the output of the statements after it, also
⍝ when the program reads it only later (1e308×10 overflows to ∞, a DOMAIN ERROR, so nothing is printed). Compiled code
⍝ used to fuse w into the sum after the print.
⍝! DOMAIN ERROR
v←(3⍴1),1e308
w←v×10
⎕←'not printed'
+/w
