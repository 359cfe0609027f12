⍝ x's length is known only at run time (n, 3 unless the run says otherwise) and only ⍴x is printed, but x is computed
⍝ where it is assigned: ÷0×⍳n divides 1 by 0, a DOMAIN ERROR, and nothing is printed.
⍝! DOMAIN ERROR at 5:3
n←3 ⎕ArgInt 1
x←÷0×⍳n
⎕←⍴x
