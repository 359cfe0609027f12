⍝ sieve: the primes up to N by Eratosthenes' sieve, written as a traditional function the way it is written outside
⍝ array style: a :For over the candidates up to √N, and for each one still marked, an indexed assignment that
⍝ clears its multiples from its square on. Prints how many primes there are and the largest.
⍝ Checked by hand for N=30: 2 3 5 7 11 13 17 19 23 29, so it prints 10 29; π(10⁷) is 664579 in any table, and the
⍝ largest prime below 10⁷ is 9999991. sieve.c and sieve.py print the same for every N tried.
N←10000000 ⎕ArgInt 1
∇ R←SIEVE N;P;I
  P←N⍴1 ⋄ P[1]←0
  :For I :In 1↓⍳⌊N*0.5
      :If P[I]
          P[(I×I)+I×¯1+⍳1+⌊(N-I×I)÷I]←0
      :EndIf
  :EndFor
  R←P
∇
P←SIEVE N
⎕←(+/P),⌈/P/⍳N
