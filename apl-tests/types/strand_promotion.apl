⍝ a strand of bool, int and double literals has the join type; it prints the same values
⍝> 0 1 2
⍝> 1 2.5
⍝> 1 0 1 2.5
⍝> 1.5
0 1 2
1 2.5
(1 0 1),2.5
(0 1 2)[3]-0.5
