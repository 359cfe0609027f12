⍝ ⍣ on a vector state: Fibonacci pairs (a b)→(b, a+b) 8 times from F2 F3 = 1 2 gives F10 F11
⍝ 1 2 → 2 3 → 3 5 → 5 8 → 8 13 → 13 21 → 21 34 → 34 55 → 55 89
⍝> 55 89
{(⍵[2]),+/⍵}⍣8⊢1 2
