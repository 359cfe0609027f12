⍝ signal: the APEX diff/signal program (thesis Ex. 3.1): sum of a clamped relative difference over ⍳N.
⍝ Checked by hand: diff 0,⍳N is N ones, so the result is the sum over i of 50÷(0.01+i) clamped to ¯50..50; for N=3
⍝ that is 50÷1.01 + 50÷2.01 + 50÷3.01 = 49.50495050 + 24.87562189 + 16.61129568
⍝ = 90.99186807 (worked out apart; C and NumPy agree).
N←50000000 ⎕ArgInt 1
diff←{1↓⍵-¯1⌽⍵}
signal←{¯50⌈50⌊50×(diff 0,⍵)÷0.01+⍵}
⎕←+/signal ⍳N
