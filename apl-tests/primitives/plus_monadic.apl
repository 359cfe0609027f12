⍝ monadic + is identity (conjugate) on real numbers
⍝> ¯3 4.5 0
+¯3 4.5 0
