⍝ 5÷2 is 2.5, not a whole number: ⍳ of it is a DOMAIN ERROR when the program runs (n is read when running)
⍝! DOMAIN ERROR at 4:1
n←5 ⎕ArgInt 1
⍳n÷2
