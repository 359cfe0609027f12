⍝ A sum that overflows in a reduction is a DOMAIN ERROR, also when it runs in a compiled loop (whose check is
⍝ made on the final accumulator): 1000 times 1e308 is beyond the largest double (about 1.8E308), 2 times 1e307 not.
⍝> 2E307
⍝! DOMAIN ERROR at 7:1
v←1000⍴1e308
⎕←+/2⍴1e307
+/v
