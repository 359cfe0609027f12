⍝ Traditional functions: every header form, dynamic scope, locals, shy results.
⍝> 7
⍝> 1 4 9 16
⍝> 43
⍝> value: 5
⍝> 3
⍝> 11
⍝> 100
⍝> 3
⍝> 12
⍝> 0 1 2
⍝> 5 1 2
⍝> 2 3 0 ¯1
⍝> 0
∇ R←A PLUS B
  R←A+B
∇
∇ R←SQUARE X
  R←X×X
∇
∇ R←ANSWER
  R←42
∇
∇ SHOW X
  'value: ',⍕X
∇
3 PLUS 4
SQUARE ⍳4
ANSWER+1
SHOW 5
⍝ A name that is not local to the function is the caller's: BUMP changes the global COUNT.
∇ BUMP
  COUNT←COUNT+1
∇
COUNT←0
BUMP ⋄ BUMP ⋄ BUMP
COUNT
⍝ T is local to F: the global T is untouched.
∇ R←F X;T
  T←X×2
  R←T+1
∇
T←100
F 5
T
⍝ A shy result is not shown when the call is the whole statement, but it is a value.
∇ {R}←G X
  R←X+1
∇
G 1
1+G 1
⍝ Functions call each other, and see their caller's locals (dynamic scope).
∇ R←OUTER X;K
  K←10
  R←INNER X
∇
∇ R←INNER X
  R←X+K
∇
OUTER 2
⍝ {A}: the left argument is optional; ⎕NC'A' is 0 in a monadic call, even with a global A.
∇ R←{A} PAD B
  :If 0=⎕NC'A'
      A←0
  :EndIf
  R←A,B
∇
A←99
PAD 1 2
5 PAD 1 2
(⎕NC'A'),(⎕NC'PAD'),(⎕NC'NOPE'),⎕NC'1X'
⍝ A local has no value until it is assigned: the global T is hidden.
∇ R←HASLOCAL X;T
  R←⎕NC'T'
∇
T←1
HASLOCAL 0
