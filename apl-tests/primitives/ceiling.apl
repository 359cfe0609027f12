⍝ monadic ⌈ rounds up; ⌈¯0.5 is 0 (printed without sign)
⍝> 3 ¯2 3 0
⌈2.1 ¯2.1 3 ¯0.5
