⍝ Recursive tradfns: unfolded when the conditions are constants (FACT 5), else compiled as recursive functions
⍝ (P is 7 when the program runs with no arguments), with :Return and → leaving early.
⍝> 5040
⍝> 120
⍝> 6765
⍝> 1 1 2 3 3 4 5 5 5 6 9
⍝> 9
⍝> 5040
⍝> move 1 from 1 to 2
⍝> move 2 from 1 to 3
⍝> move 1 from 2 to 3
⍝> move 1 from 1 to 3
⍝> move 2 from 1 to 2
⍝> move 1 from 3 to 2
⍝> move 3 from 1 to 3
⍝> move 1 from 2 to 1
⍝> move 2 from 2 to 3
⍝> move 1 from 1 to 3
P←7 ⎕ArgInt 1
∇ R←FACT N
  :If N≤1 ⋄ R←1 ⋄ :Else ⋄ R←N×FACT N-1 ⋄ :EndIf
∇
FACT P
FACT 5
∇ R←FIB N
  :If N<2
      R←N
  :Else
      R←(FIB N-1)+FIB N-2
  :EndIf
∇
FIB P+13
∇ R←QS V;P
  :If 1≥≢V
      R←V
      :Return
  :EndIf
  P←V[⌈(≢V)÷2]
  R←(QS (V<P)/V),((V=P)/V),QS (V>P)/V
∇
QS 3 1 4 1 5 9 2 6 5 3 5+P-P
∇ R←A ACK B
  :If A=0
      R←B+1
  :ElseIf B=0
      R←(A-1) ACK 1
  :Else
      R←(A-1) ACK A ACK B-1
  :EndIf
∇
2 ACK P-4
∇ R←FACTL N
  R←1
  →(N≤1)/0
  R←N×FACTL N-1
∇
FACTL P
⍝ A recursive function without a result, run for what it prints (Hanoi with 2 discs unfolded, with P-4 discs as a
⍝ recursive function).
∇ N HANOI X
  :If N>0
      (N-1) HANOI X[1 3 2]
      'move ',(⍕N),' from ',(⍕X[1]),' to ',⍕X[2]
      (N-1) HANOI X[3 2 1]
  :EndIf
∇
2 HANOI 1 3 2
(P-4) HANOI 1 3 2
