⍝ ⎕← prints its value; an assignment prints nothing; a bare expression prints its value
⍝> 1 2 3
⍝> abc
⍝> 6
x←1 2 3
⎕←x
⎕←'abc'
+/x
y←+/x
