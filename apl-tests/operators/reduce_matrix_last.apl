⍝ / on a matrix reduces each row (last axis)
⍝> 6 15
⍝> 3 6
+/2 3⍴⍳6
⌈/2 3⍴3 1 2 6 5 4
