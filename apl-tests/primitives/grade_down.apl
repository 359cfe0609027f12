⍝ monadic ⍒ is a stable descending grade: equal items keep their order
⍝> 1 3 2 4
⍝> 9 5 3 1
⍝> 3 1 4 2
⍒3 1 2 1
B←5 1 9 3
B[⍒B]
⍒2.5 0.5 3 1
