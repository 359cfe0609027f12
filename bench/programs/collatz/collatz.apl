⍝ collatz: the start below N+1 whose Collatz sequence (halve an even number, else triple it and add 1) takes the
⍝ most steps to reach 1, and that number of steps, written as a traditional function with scalar loops (:For over
⍝ the starts, :While over the steps), the way such code is written outside array style. X÷2 of an even X is exact
⍝ (aplc keeps X a double, as large as 5.7E10 at the full size, far below 2^53).
⍝ Checked by hand for N=10: 9 takes 19 steps (9 28 14 7 22 11 34 17 52 26 13 40 20 10 5 16 8 4 2 1), more than any
⍝ other start up to 10 (7 takes 16). collatz.c and collatz.py print the same for every N tried (the full size gives
⍝ 837799 524).
N←1000000 ⎕ArgInt 1
∇ R←LONGEST N;START;X;STEPS;BEST;BESTSTEPS
  BEST←1 ⋄ BESTSTEPS←0
  :For START :In ⍳N
      X←START ⋄ STEPS←0
      :While X≠1
          :If 0=2|X
              X←X÷2
          :Else
              X←1+3×X
          :EndIf
          STEPS+←1
      :EndWhile
      :If STEPS>BESTSTEPS
          BEST←START ⋄ BESTSTEPS←STEPS
      :EndIf
  :EndFor
  R←BEST,BESTSTEPS
∇
LONGEST N
