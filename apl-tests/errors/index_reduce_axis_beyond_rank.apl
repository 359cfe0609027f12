⍝ a vector has no axis 2 (Dyalog: INDEX ERROR)
⍝! INDEX ERROR at 3:2
+/[2]⍳5
