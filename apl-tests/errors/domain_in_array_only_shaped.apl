⍝ ⍴ of an array whose shape is known when the program is compiled (3) needs none of its elements, but APL computes
⍝ the array first: ÷0×1 2 3 divides 1 by 0, a DOMAIN ERROR, before ⍴ is applied and before anything is printed.
⍝! DOMAIN ERROR at 4:4
⎕←⍴÷0×1 2 3
