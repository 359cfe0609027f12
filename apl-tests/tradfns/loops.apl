⍝ :While, :Repeat/:Until and :For, with :Leave and :Continue, over values read at run time (P is 7 when the
⍝ program runs with no arguments) and over values known when compiling.
⍝> 28
⍝> 16
⍝> 5040
⍝> 9
⍝> 0
⍝> 5
⍝> 1
⍝> 2 3 5 7 11 13 17 19 23
⍝> 7
⍝> 3
⍝> 2
⍝> 1
⍝> liftoff
⍝> 6
⍝> ab-cde-f-
⍝> 55
⍝> 49 7
⍝> 7
P←7 ⎕ArgInt 1
∇ R←SUMTO N;I
  R←0 ⋄ I←1
  :While I≤N
      R+←I
      I+←1
  :EndWhile
∇
SUMTO P
⍝ N is halved (a double) or tripled: the loop's N is a double throughout.
∇ R←COLLATZ N
  R←0
  :While N≠1
      :If 0=2|N
          N←N÷2
      :Else
          N←1+3×N
      :EndIf
      R+←1
  :EndWhile
∇
COLLATZ P
∇ R←FACTORIAL N;I
  R←1
  :For I :In ⍳N
      R×←I
  :EndFor
∇
FACTORIAL P
∇ R←T FIRSTOVER V;X
  R←0
  :For X :In V
      :If X≤T
          :Continue
      :EndIf
      R←X
      :Leave
  :EndFor
∇
P FIRSTOVER 3 1 4 1 5 9 2 6 8
P FIRSTOVER 1 2 3
∇ R←DIGITS N
  R←0
  :Repeat
      R+←1
      N←⌊N÷10
  :Until N=0
∇
DIGITS 12345×P
DIGITS P
⍝ R grows from an empty vector; the loop's R is an integer vector.
∇ R←PRIMES N;C
  R←⍬ ⋄ C←2
  :While C≤N
      :If ~∨/0=R|C
          R,←C
      :EndIf
      C+←1
  :EndWhile
∇
PRIMES 20+P
⍝ TICK changes the global TICKS: a name a called function assigns is part of the loop's state too.
∇ TICK
  TICKS+←1
∇
∇ RUN N;I
  :For I :In ⍳N
      TICK
  :EndFor
∇
TICKS←0
RUN P
TICKS
⍝ Statements inside a loop print on each pass.
∇ COUNTDOWN N
  :While N>0
      N
      N-←1
  :EndWhile
  'liftoff'
∇
COUNTDOWN 3
⍝ :Repeat with :Leave and no :Until.
∇ R←HALVINGS N
  R←0
  :Repeat
      :If N<1
          :Leave
      :EndIf
      N←N÷2
      R+←1
  :EndRepeat
∇
HALVINGS 40+P-P
⍝ :For over a strand runs its body once per item.
∇ R←JOIN WORDS;W
  R←''
  :For W :In WORDS
      R←R,W,'-'
  :EndFor
∇
JOIN 'ab' 'cde' 'f'
⍝ Recursion unfolds when its conditions are known when compiling.
∇ R←FIB N
  :If N<2
      R←N
  :Else
      R←(FIB N-1)+FIB N-2
  :EndIf
∇
FIB 10
⍝ A name that gets its first value in the loop has it afterwards: a local, the :For variable, a new global.
∇ R←LASTSQUARE N;I;LAST
  :For I :In ⍳N
      LAST←I×I
  :EndFor
  R←LAST,I
∇
LASTSQUARE P
∇ MAKEGLOBAL N;I
  :For I :In ⍳N
      NEWG←I
  :EndFor
∇
MAKEGLOBAL P
NEWG
