⍝ Every control structure aplc supports, nested inside a traditional function.
∇ R←Classify X;i;total
  :If X<0
    R←'negative'
  :ElseIf X=0
  :AndIf 1
    R←'zero'
  :Else
    R←'positive'
  :EndIf
  total←0
  :For i :In ⍳X
    :If i=3
      :Continue
    :EndIf
    total←total+i
  :EndFor
  :While total>100
  :OrIf total<0
    total←total-1
    :If total=50
      :Leave
    :EndIf
  :EndWhile
  :Repeat
    total←total÷2
  :Until total<1
  :Repeat
    :Leave
  :EndRepeat
  :Select X
  :Case 1
    R←'one'
  :CaseList 2 3
    R←'two or three'
  :Else
    :Return
  :EndSelect
∇
