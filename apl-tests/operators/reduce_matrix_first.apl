⍝ ⌿ reduces along the first axis: -⌿3 2⍴⍳6 is 1-(3-5) = 3 and 2-(4-6) = 4
⍝> 5 7 9
⍝> 3 4
+⌿2 3⍴⍳6
-⌿3 2⍴⍳6
