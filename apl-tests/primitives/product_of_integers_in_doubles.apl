⍝ ×/ of integers is computed in doubles, as Dyalog does beyond 32 bits: 21! and 25! leave 64 bits and are no overflow
⍝ (Dyalog prints 5.109094217E19 and 1.551121004E25); below 2^53 the double product is exact, so it serves as an
⍝ integer (⍳×/2 2, a shape known only when running). Checked by hand: 20! is 2432902008176640000; the rows of
⍝ 2 3⍴⍳6 give 6 and 120; ×/⍬ is 1 and ×/ of booleans stays an and (0).
⍝> 2.432902008E18
⍝> 5.109094217E19
⍝> 1.551121004E25
⍝> 6 120
⍝> 1 2 3 4
⍝> 1 1 1 1 1 1 1 1 1
⍝> 1
⍝> 0
×/⍳20
×/⍳21
×/⍳25
×/2 3⍴⍳6
⍳×/2 2
n←3 ⎕ArgInt 1
(×/n n)⍴1
×/⍬
×/1 0 1
