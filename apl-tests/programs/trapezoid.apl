⍝ the trapezoid rule for the integral of x*2 over 0..1 with 4 intervals (exact in binary)
⍝ h = 0.25, f = 0 0.0625 0.25 0.5625 1, sum 1.875; h×(1.875-(0+1)÷2) = 0.25×1.375 = 0.34375
⍝> 0.34375
trap←{h←÷⍵ ⋄ x←h×0,⍳⍵ ⋄ f←x*2 ⋄ h×(+/f)-((⊃f)+⊃⌽f)÷2}
trap 4
