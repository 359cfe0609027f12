⍝ ⍴ of a scalar is the empty vector whatever the scalar is, but APL computes it first: (⍳n)[n+1] is past the end of
⍝ ⍳n (n is 3 unless the run says otherwise), an INDEX ERROR after the first line is printed.
⍝> 3
⍝! INDEX ERROR
n←3 ⎕ArgInt 1
⎕←n
⎕←⍴(⍳n)[n+1]
