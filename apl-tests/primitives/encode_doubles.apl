⍝ ⊤ on doubles, by APL's definition from the right: each digit is b|x for its radix b, and (x-digit)÷b is left
⍝ for the digits before it (a 0 radix takes what is left). Checked by hand: 1|3.75 is 0.75, leaving 3; 1|¯3.75 is
⍝ 0.25, leaving ¯4; 90.5 is 1 hour 30 minutes 0.5 (radix 1); 10÷2 is 5, 0 1 0 1 in binary; 3725.5 seconds is 1 2 5.5;
⍝ 3692 and 3693 seconds are 1:1:32 and 1:1:33 (a 3×2 matrix); 2|2.5 is 0.5; 10|2.5 13.25 is 2.5 3.25.
⍝> 3 0.75
⍝> ¯4 0.25
⍝> 1 30 0.5
⍝> 0 1 0 1
⍝> 1 2 5.5
⍝>  1  1
⍝>  1  1
⍝> 32 33
⍝> 0.5
⍝> 2.5 3.25
0 1⊤3.75
0 1⊤¯3.75
0 60 1⊤90.5
(4⍴2)⊤10÷2
0 60 60⊤3725.5
24 60 60⊤0.5×7384 7386
2⊤2.5
10⊤2.5 13.25
