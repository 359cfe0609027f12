⍝ monadic - negates; negative results print with high minus
⍝> ¯3 2 0 ¯1.5
-3 ¯2 0 1.5
