⍝ ?0 is a random number strictly between 0 and 1 (Dyalog); with counts mixed with 0, each 0 gives such a number
⍝ and each positive n an integer from 1 to n. Only these properties are checked: the numbers drawn differ from
⍝ Dyalog's.
⍝> 1
⍝> 3
⍝> 1 1 1
⍝> 1
⍝> 1
x←?0
(x>0)∧x<1
y←?0 0 0
⍴y
(y>0)∧y<1
z←?0 6
((z[1]>0)∧z[1]<1)
z[2]∊⍳6
