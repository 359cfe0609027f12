⍝ matrix +.× vector gives row sums weighted by the vector; vector +.× matrix gives column sums
⍝> 6 15
⍝> 5 7 9
⍝> 14 32
(2 3⍴⍳6)+.×1 1 1
1 1+.×2 3⍴⍳6
(2 3⍴⍳6)+.×1 2 3
