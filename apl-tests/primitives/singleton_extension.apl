⍝ A one-element array goes with every element of the other argument of a scalar function, as a scalar does
⍝ (Dyalog's singleton extension); of two one-element arrays the result has the higher rank. Checked by hand: 5
⍝ added to 1 2 3; 3 1 4 divided by its length 3; 3 1 4 minus its first item; 10 added to a 2×2 matrix; 5 times
⍝ 1 2 3 from a 1×1 matrix; 2*3 as a 1×1 matrix (shown 8); n (4 when running) added to ⍳n.
⍝> 6 7 8
⍝> 1 0.3333333333 1.333333333
⍝> 0 ¯2 1
⍝> 11 12
⍝> 13 14
⍝> 5 10 15
⍝> 8
⍝> 5 6 7 8
v←3 1 4
(,5)+1 2 3
v÷⍴v
v-1↑v
(2 2⍴⍳4)+,10
(1 1⍴5)×1 2 3
(,2)*1 1⍴3
n←4 ⎕ArgInt 1
(,n)+⍳n
