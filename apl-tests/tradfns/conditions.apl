⍝ :If, :ElseIf, :Else, :AndIf, :OrIf and :Select, on values known when compiling and on values read at run time
⍝ (⎕ArgInt with its default: the program gets no arguments, so Z is 0 and P is 7, but only when it runs).
⍝> negative
⍝> zero
⍝> positive
⍝> zero
⍝> positive
⍝> 0
⍝> 3
⍝> one
⍝> few
⍝> many
⍝> one
⍝> few
⍝> many
⍝> 0
⍝> 1
⍝> 1
⍝> 0
Z←0 ⎕ArgInt 1
P←7 ⎕ArgInt 2
∇ R←CLASSIFY X
  :If X<0
      R←'negative'
  :ElseIf X=0
      R←'zero'
  :Else
      R←'positive'
  :EndIf
∇
CLASSIFY ¯5
CLASSIFY 0
CLASSIFY 5
CLASSIFY Z
CLASSIFY P
⍝ :Return leaves the function; the statements after the :If run only on the other path.
∇ R←A SAFEDIV B
  R←0
  :If B=0
      :Return
  :EndIf
  R←A÷B
∇
10 SAFEDIV Z
21 SAFEDIV P
∇ R←NAME N
  :Select N
  :Case 1
      R←'one'
  :CaseList 2 3
      R←'few'
  :Else
      R←'many'
  :End
∇
NAME 1
NAME 3
NAME 8
NAME Z+1
NAME Z+2
NAME P
⍝ :AndIf is tested only when the :If holds, so V[I] is never out of range here.
∇ R←V POSITIVEAT I
  :If I≤≢V
  :AndIf 0<V[I]
      R←1
  :Else
      R←0
  :EndIf
∇
3 1 4 POSITIVEAT P
3 1 4 POSITIVEAT Z+2
⍝ :OrIf is tested only when the :If fails.
∇ R←EITHER X
  :If X=0
  :OrIf 1=10÷X
      R←1
  :Else
      R←0
  :EndIf
∇
EITHER Z
EITHER Z+20
