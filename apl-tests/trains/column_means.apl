⍝ (+⌿÷≢) on a matrix gives the mean of each column: (1+4)÷2 (2+5)÷2 (3+6)÷2
⍝> 2.5 3.5 4.5
(+⌿÷≢)2 3⍴⍳6
