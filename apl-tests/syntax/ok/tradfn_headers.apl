⍝ Every header form of a traditional function, with locals (system names among them) and comments.
∇ Hello
  ⎕←'hello'
∇
∇ Show X
  ⎕←X
∇
∇ A Both B
  ⎕←A B
∇
∇ R←Answer
  R←42
∇
∇ R←Double X ⍝ the result is named R
  R←2×X
∇
∇ R←A Plus B;T;⎕IO
  ⎕IO←1
  T←A+B
  R←T
∇ ⍝ the closing line may hold a comment
∇ {R}←{A} Shy B;i
  :If 0=⎕NC'A'
    A←0
  :EndIf
  R←A+B
∇
Double 3
