⍝ :For (A B) :In V binds A and B to the items of each item of V, as (A B)←item does (a scalar item gives both
⍝ names its value). Worked by hand: the pairs (1 2)(3 4)(5 6) give 1×2+3×4+5×6 = 44; over the simple vector 4 5 6
⍝ each item is a scalar, so A-B is 0 three times; the name-value pairs print each name with its value doubled.
⍝> 44
⍝> 0 0 0
⍝> a 2
⍝> b 4
P←0 ⎕ArgInt 1
∇ R←PAIRS V;A;B
  R←0
  :For (A B) :In V
      R←R+A×B
  :EndFor
∇
PAIRS (1 2)(3 4)(5 6)
∇ R←SAME V;A;B
  R←⍬
  :For (A B) :In V
      R←R,A-B
  :EndFor
∇
SAME P+4 5 6
∇ SHOW V;N;X
  :For (N X) :In V
      N,' ',⍕2×X
  :EndFor
∇
SHOW ('a' 1)('b' 2)
