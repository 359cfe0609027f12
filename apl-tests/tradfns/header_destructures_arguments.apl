⍝ Names in parentheses in a tradfn header split an argument as (A B)←argument does: ∇ C←MM (A B) takes the
⍝ matrices as a strand, ∇ R←(X Y) DIST (P Q) two points. Worked by hand: with A←3 3⍴⍳9 and B←3 3⍴⌽⍳9 the product's
⍝ first row is 1×9+2×6+3×3=30, 1×8+2×5+3×2=24, 1×7+2×4+3×1=18 (the others likewise), and it matches A+.×B; the
⍝ squared distance from 0 0 to 3 4 is 25; F 1 2 3 is 1+2×3; over the strand (1 2)(3 4)(5 6) it is (1 2)+(3 4)×(5 6).
⍝>  30  24 18
⍝>  84  69 54
⍝> 138 114 90
⍝> 1
⍝> 25
⍝> 7
⍝> 16 26
∇ C←MM (A B);I;J;K;S
  C←((≢A),1↓⍴B)⍴0
  :For I :In ⍳≢A
    :For J :In ⍳1↓⍴B
      S←0
      :For K :In ⍳1↓⍴A
        S+←A[I;K]×B[K;J]
      :EndFor
      C[I;J]←S
    :EndFor
  :EndFor
∇
A←3 3⍴⍳9
B←3 3⍴⌽⍳9
MM A B
(A+.×B)≡MM A B
∇ R←(X Y) DIST (P Q)
  R←((X-P)*2)+(Y-Q)*2
∇
0 0 DIST 3 4
∇ R←F (A B C)
  R←A+B×C
∇
F 1 2 3
F (1 2)(3 4)(5 6)
