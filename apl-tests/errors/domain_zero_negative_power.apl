⍝ 0*¯1 is 1÷0, ∞ in IEEE arithmetic: a DOMAIN ERROR in APL.
⍝> 1
⍝! DOMAIN ERROR
⎕←0*0
0*¯1
