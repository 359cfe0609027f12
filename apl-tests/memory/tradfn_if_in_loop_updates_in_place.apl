⍝ A sieve written with an :If in a :For: the branch that updates P stores into P's own block, and the branch that
⍝ leaves it copies nothing (update-joined-states-in-place), so a pass costs its stores, not a copy of P. The index
⍝ vector I×1↓⍳⌊N÷I is computed in the loop that stores (it does not read P), so nothing is allocated inside the
⍝ loop. Primes up to 30, by hand: 2 3 5 7 11 13 17 19 23 29.
⍝> 2 3 5 7 11 13 17 19 23 29
⍝# mem copies 0
⍝# mem allocs-in-loops 0
N←30 ⎕ArgInt 1
∇ R←SIEVE N;P;I
  P←N⍴1 ⋄ P[1]←0
  :For I :In 1↓⍳⌊N*0.5
      :If P[I]
          P[I×1↓⍳⌊N÷I]←0
      :EndIf
  :EndFor
  R←P/⍳N
∇
SIEVE N
