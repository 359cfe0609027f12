⍝ A double that is a whole number serves where APL needs an integer (a count, a shape, an index, an axis amount),
⍝ as in Dyalog, also when it is only known when the program runs: n÷2 is 4.0 here, n÷4 is 2.0.
⍝ Checked by hand: v is 10 20 … 80; ⍳4; v[4]; 4↑v; 4⍴7; 2⌽v; v[4 2]; 2 4⍴⍳8; 4⊃v; 4↓v. HALVES 16 sums ⍳8, ⍳4,
⍝ ⍳2, ⍳1 (36 10 3 1); the factors of 360 are 2 2 2 3 3 5 (each step divides by the smallest divisor above 1).
⍝> 1 2 3 4
⍝> 40
⍝> 10 20 30 40
⍝> 7 7 7 7
⍝> 30 40 50 60 70 80 10 20
⍝> 40 20
⍝> 1 2 3 4
⍝> 5 6 7 8
⍝> 40
⍝> 50 60 70 80
⍝> 36 10 3 1
⍝> 2 2 2 3 3 5
⍝> 2 2 2 3 3 5
n←8 ⎕ArgInt 1
v←10×⍳8
⍳n÷2
v[n÷2]
(n÷2)↑v
(n÷2)⍴7
(n÷4)⌽v
v[(n÷2),n÷4]
2 (n÷2)⍴⍳8
(n÷2)⊃v
(n÷2)↓v
∇ R←HALVES N
  R←⍬
  :While N>1
      N←N÷2
      R,←+/⍳N
  :EndWhile
∇
HALVES 16
∇ R←FACTORS N;D
  R←⍬ ⋄ D←2
  :While N>1
      :If 0=D|N
          R,←D ⋄ N←N÷D
      :Else
          D+←1
      :EndIf
  :EndWhile
∇
FACTORS 360
factors←{⍵=1:⍬ ⋄ d←⊃(0=(1↓⍳⍵)|⍵)/1↓⍳⍵ ⋄ d,∇ ⍵÷d}
factors 360
