⍝ ⍣ on a vector state: Fibonacci pairs (a b)→(b, a+b) ten times from 0 1 gives F10 F11
⍝> 55 89
{(⍵[2]),+/⍵}⍣10⊢0 1
