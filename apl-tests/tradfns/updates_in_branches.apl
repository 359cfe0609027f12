⍝ Arrays updated by index in one branch of an :If inside loops (the memory passes update them in place: see
⍝ memory/tradfn_if_in_loop_updates_in_place.apl), with the old value read in the same branch before and after the
⍝ stores, and in the other branch. Worked by hand:
⍝ bubble sort of 5 3 8 1 9 2 and of 2.5 ¯1 0 2.5 1; insertion sort of 4 1 3 1 2 (:Leave inside the :If);
⍝ the sieve's primes up to 50; SWAPS walks 5 3 8 1 9 2 once: I=1 swaps (3 5 8 1 9 2), I=2 adds 100 to V[2]
⍝ (3 105 8 1 9 2), I=3 swaps (3 105 1 8 9 2), I=4 adds 100 to V[4] (3 105 1 108 9 2), I=5 swaps
⍝ (3 105 1 108 2 9): three swaps. The dfn's guard leaves its argument or updates a copy: 3 F ⍳7 sets item 3 to item 4.
⍝ An :ElseIf chain counts into one of three items: ¯1+3|⍳10 is 0 1 ¯1 0 1 ¯1 0 1 ¯1 0, three negative, four zero and
⍝ three positive items.
⍝> 1 2 3 5 8 9
⍝> ¯1 0 1 2.5 2.5
⍝> 1 1 2 3 4
⍝> 2 3 5 7 11 13 17 19 23 29 31 37 41 43 47
⍝> 3 3 105 1 108 2 9
⍝> 1 2 4 4 5 6 7
⍝> 1 2 3 4 5 6 7
⍝> 3 4 3
∇ R←BSORT V;I;J;T;N
  N←≢V
  :For I :In ⍳N-1
      :For J :In ⍳N-I
          :If V[J]>V[J+1]
              T←V[J] ⋄ V[J]←V[J+1] ⋄ V[J+1]←T
          :EndIf
      :EndFor
  :EndFor
  R←V
∇
BSORT 5 3 8 1 9 2
BSORT 2.5 ¯1 0 2.5 1
∇ R←ISORT V;I;J;K
  :For I :In 1↓⍳≢V
      K←V[I] ⋄ J←I-1
      :While J>0
          :If V[J]≤K ⋄ :Leave ⋄ :EndIf
          V[J+1]←V[J] ⋄ J←J-1
      :EndWhile
      V[J+1]←K
  :EndFor
  R←V
∇
ISORT 4 1 3 1 2
∇ R←SIEVE N;P;I
  P←N⍴1 ⋄ P[1]←0
  :For I :In 1↓⍳⌊N*0.5
      :If P[I]
          P[I×1↓⍳⌊N÷I]←0
      :EndIf
  :EndFor
  R←P/⍳N
∇
SIEVE 50
∇ R←SWAPS V;I;T
  R←0
  :For I :In ⍳(≢V)-1
      :If V[I]>V[I+1]
          T←V[I] ⋄ V[I]←V[I+1] ⋄ V[I+1]←T ⋄ R←R+1
      :Else
          V[I]←V[I]+100
      :EndIf
  :EndFor
  R←R,V
∇
SWAPS 5 3 8 1 9 2
F←{⍺>5:⍵ ⋄ V←⍵ ⋄ V[⍺]←V[⍺+1] ⋄ V}
3 F ⍳7
6 F ⍳7
∇ R←CLASSIFY V;I
  R←3⍴0
  :For I :In ⍳≢V
      :If V[I]<0 ⋄ R[1]+←1
      :ElseIf V[I]=0 ⋄ R[2]+←1
      :Else ⋄ R[3]+←1
      :EndIf
  :EndFor
∇
CLASSIFY ¯1+3|⍳10
