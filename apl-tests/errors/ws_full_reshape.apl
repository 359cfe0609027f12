⍝ A reshape whose result cannot be allocated (10^12 integers, 8 TB) is WS FULL with exit status 1 on every
⍝ backend, never an abort or the OOM killer; the output before it is printed.
⍝> 1 2 3
⍝! WS FULL
⎕←1 2 3
x←1e12⍴1 2
x[3]←5
+/x
