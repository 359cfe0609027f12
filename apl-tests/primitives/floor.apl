⍝ monadic ⌊ rounds down, also for negatives
⍝> 2 ¯3 3 ¯1
⌊2.9 ¯2.1 3 ¯0.5
