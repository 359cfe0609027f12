⍝ the fork (+/÷≢) is the mean
⍝> 2.5
⍝> 5
(+/÷≢)1 2 3 4
(+/÷≢)2 4 9
