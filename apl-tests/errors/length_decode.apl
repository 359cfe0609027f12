⍝ decode needs radix and digits of the same length (neither is a singleton here)
⍝! LENGTH ERROR
1 2⊥1 2 3
