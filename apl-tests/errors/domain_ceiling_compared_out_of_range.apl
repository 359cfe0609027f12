⍝ ⌈ of a value outside the int range compared with an int: a DOMAIN ERROR on every backend (the compiled check is
⍝ deferred to the end of the loop). ⌈(⍳4)÷3 = 1 1 1 2 (by hand), so 1=⌈(⍳4)÷3 is 1 1 1 0.
⍝> 1 1 1 0
⍝! DOMAIN ERROR
⎕←1=⌈(⍳4)÷3
y←(⍳3)×¯1E300
⎕←+/0<⌈y
