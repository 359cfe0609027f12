⍝ ×/⍳20 is 20! = 2432902008176640000, the largest factorial in 64 bits; 21! is about 5.1E19. An int product
⍝ reduction checks each step of APL's right fold.
⍝> 2432902008176640000
⍝! DOMAIN ERROR
⎕←×/⍳20
×/⍳21
