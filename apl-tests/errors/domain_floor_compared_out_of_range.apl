⍝ ⌊ of a value outside the int range is a DOMAIN ERROR also where the floor is only compared, as in the bit
⍝ matrices of the Sobol benchmark (1=2|⌊x): compiled code defers that check to the end of the loop, and the program
⍝ still stops with the error after the output printed before it. The first line is 1=2|⌊(⍳6)÷2 = 0 1 1 0 0 1... by
⍝ hand: ⌊0.5 1 1.5 2 2.5 3 = 0 1 1 2 2 3, odd ones are 1.
⍝> 0 1 1 0 0 1
⍝! DOMAIN ERROR
⎕←1=2|⌊(⍳6)÷2
x←(⍳5)×1E30
⎕←+/1=2|⌊x
