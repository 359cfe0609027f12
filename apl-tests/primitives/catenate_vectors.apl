⍝ dyadic , joins vectors, and scalars to vectors, of numbers and of characters
⍝> 1 2 3 4 5
⍝> 0 1 2
⍝> 1 2 0
⍝> abcd
⍝> 1 2.5
1 2,3 4 5
0,1 2
1 2,0
'ab','cd'
1,2.5
