⍝ ⌈/ and ⌊/ find the largest and smallest item
⍝> 5
⍝> 1
⍝> ¯1.5
⌈/3 1 4 1 5
⌊/3 1 4 1 5
⌈/¯3 ¯1.5 ¯2
