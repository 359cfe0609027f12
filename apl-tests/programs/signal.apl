⍝ the thesis's signal benchmark (APEX, Ex. 3.1): +/ signal ⍳100
⍝ diff 0,⍳100 is 100 ones, so signal ⍳100 is 50÷0.01+⍳100 (every item is below the 50 clamp: 50÷1.01 = 49.50...)
⍝ +/50÷0.01+⍳100 = 258.5573403661738 (python3, double precision); apltail's README prints 258.557340366,
⍝ Dyalog with ⎕PP=10 prints 10 significant digits: 258.5573404
⍝> 258.5573404
diff←{1↓⍵-¯1⌽⍵}
signal←{¯50⌈50⌊50×(diff 0,⍵)÷0.01+⍵}
+/signal ⍳100
