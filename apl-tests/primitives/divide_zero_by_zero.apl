⍝ in Dyalog (⎕DIV=0) 0÷0 is 1; only a nonzero divided by zero is a DOMAIN ERROR
⍝> 1
0÷0
