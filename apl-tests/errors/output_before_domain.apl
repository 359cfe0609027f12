⍝ output printed before a run-time error is still expected
⍝> 1 2 3
⍝> 6
⍝! DOMAIN ERROR
x←1 2 3
⎕←x
+/x
(+/x)÷0
