⍝ ×/⍳20 is 20! = 2432902008176640000, the largest factorial in 64 bits; 21! is about 5.1E19. An int product
⍝ reduction checks each step of APL's right fold.
⍝ Integers beyond 32 bits print as Dyalog prints them, as doubles at ⎕PP 10 (README, display).
⍝> 2.432902008E18
⍝! DOMAIN ERROR
⎕←×/⍳20
×/⍳21
