⍝ the middle axis of a rank-3 array is not supported for reduce
⍝! NONCE ERROR at 3:2
+/[2]2 2 2⍴⍳8
