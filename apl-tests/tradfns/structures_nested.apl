⍝ Control structures nested in each other, :Select on strings, :Continue in :Repeat, printing on one path, tradfns
⍝ called from dfns and operators.
⍝> 28
⍝> pet
⍝> wild
⍝> unknown
⍝> 16
⍝> big
⍝> small
⍝> 42
⍝> 8
⍝> 2 2 4 4 6 6 8
P←7 ⎕ArgInt 1
∇ R←PAIRS N;I;J
  R←0
  :For I :In ⍳N
      :For J :In ⍳N
          :If J>I
              :Leave
          :EndIf
          R+←1
      :EndFor
  :EndFor
∇
PAIRS P
∇ R←KIND W
  :Select W
  :CaseList 'cat' 'dog'
      R←'pet'
  :Case 'lion'
      R←'wild'
  :Else
      R←'unknown'
  :EndSelect
∇
KIND 'dog'
KIND 'lion'
KIND 'cow'
∇ R←ODDSUM N;I
  R←0 ⋄ I←0
  :Repeat
      I+←1
      :If 0=2|I
          :Continue
      :EndIf
      R+←I
  :Until I≥N
∇
ODDSUM P
∇ SAY X
  :If X>5
      'big'
  :Else
      'small'
  :EndIf
∇
SAY P
SAY P-5
∇ R←TWICE X
  R←X×2
∇
F←{TWICE ⍵}
F 21
TWICE⍣3⊢1
∇ R←NEST N;I;S
  R←⍬
  :For I :In ⍳N
      S←0
      :While S<I
          S+←2
      :EndWhile
      R,←S
  :EndFor
∇
NEST P
