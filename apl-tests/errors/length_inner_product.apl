⍝ the inner axes of an inner product must have the same length
⍝! LENGTH ERROR
1 2 3+.×1 2
