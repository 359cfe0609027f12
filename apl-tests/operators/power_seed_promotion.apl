⍝ ⍣ from a boolean literal seed (1, 0 1) whose iterates are integers or doubles: the seed is promoted
⍝ 1 doubled 3 times is 8; (a b)→(b, a+b) ten times from 0 1 gives F10 F11 = 55 89; 1+÷1 = 2
⍝> 8
⍝> 55 89
⍝> 2
{⍵×2}⍣3⊢1
{(⍵[2]),+/⍵}⍣10⊢0 1
{1+÷⍵}⍣1⊢1
