⍝ aplc compiles every comparison with the default tolerance; another ⎕CT is refused where it is assigned.
⍝! NONCE ERROR at 3:1
⎕CT←0
1=1+1E¯15
