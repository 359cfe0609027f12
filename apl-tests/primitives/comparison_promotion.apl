⍝ comparisons across bool, int and double promote to a common type
⍝> 1 0 1
⍝> 1
⍝> 1 0
⍝> 0 1 1
1 2.5 3=1 2 3
0.5<1
(1=1)=1 0
1 0 1<0.5 2.5 1.5
