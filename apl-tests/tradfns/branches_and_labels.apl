⍝ Labels and branches (→), the way older APL code is written: loops, early returns, conditional jumps in the forms
⍝ →(condition)/LABEL, →LABEL×⍳condition and →condition⍴LABEL. P is 7 when the program runs with no arguments.
⍝> 5040
⍝> 1
⍝> 7
⍝> 3
⍝> 0
⍝> 1 2 Fizz 4 Buzz Fizz 7
⍝> 55
⍝> 21
P←7 ⎕ArgInt 1
∇ R←FACT N
  R←1
LOOP:→(N≤1)/0
  R←R×N
  N←N-1
  →LOOP
∇
FACT P
FACT 1
∇ R←ABS X
  →(X≥0)/POSITIVE
  R←-X
  →0
POSITIVE:R←X
∇
ABS -P
ABS 3
ABS P-P
∇ R←FIZZ N;I;W
  R←'' ⋄ I←0
NEXT:I←I+1
  →(I>N)/0
  W←⍕I
  →(0≠3|I)/BUZZ
  W←'Fizz'
BUZZ:→(0≠5|I)⍴DONE
  W←'Buzz'
DONE:R←R,((0<≢R)⍴' '),W
  →NEXT
∇
FIZZ P
∇ R←TRIANGLE N
  R←0
TOP:R+←N
  N-←1
  →TOP×⍳N>0
∇
TRIANGLE 10
⍝ A label's value is its line number (the header is line 0).
∇ R←WHERE;A
  R←0
A1:R←R+1
  →(R<3)/A1
  R←10×A1
∇
WHERE+1
