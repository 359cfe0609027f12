⍝ x is computed where it is assigned: ÷0×⍳n fails there (DOMAIN ERROR), before ⍴x is printed, although the first use
⍝ of x reads only its shape.
⍝! DOMAIN ERROR at 5:3
n←3 ⎕ArgInt 1
x←÷0×⍳n
⎕←⍴x
⎕←x
