⍝ 1⍴ keeps only the first element of ÷x, but APL computes ÷x whole first, and x holds a 0: DOMAIN ERROR.
⍝! DOMAIN ERROR
x←(⍳3)-1
1⍴÷x
