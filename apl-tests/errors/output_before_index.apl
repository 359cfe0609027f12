⍝ statements before the failing one print normally
⍝> 10 20 30
⍝! INDEX ERROR
v←10 20 30
v
v[1+≢v]
