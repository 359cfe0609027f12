⍝ a scan over the items of a nested vector is not compiled (a reduction is)
⍝! NONCE ERROR at 3:1
+\(1 2)(3 4)
