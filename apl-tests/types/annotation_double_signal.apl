⍝ the thesis's signal with annotations, on ⍳4
⍝ diff 0,⍵ = 1 1 1 1; 50×1÷(0.01+⍵) = 50÷1.01 50÷2.01 50÷3.01 50÷4.01, all below 50
⍝ 50÷1.01 = 49.50495049..., 50÷2.01 = 24.87562189..., 50÷3.01 = 16.61129568..., 50÷4.01 = 12.46882793...
⍝ their sum is 103.4606960... (49.5049504950+24.8756218905+16.6112956811+12.4688279302 = 103.4606959968)
⍝ diff is annotated for doubles, not <κ>(ρ+1) → <κ>ρ: κ stands for every base type, and ⍵-¯1⌽⍵ gives ints for
⍝ booleans and fails for characters, so the κ annotation is rejected (grammar.md §5)
⍝> 103.460696
diff←{ ⍝: <double>(ρ+1) → <double>ρ
  1↓⍵-¯1⌽⍵
}
signal←{ ⍝: <double>ρ → <double>ρ
  ¯50⌈50⌊50×(diff 0,⍵)÷0.01+⍵
}
+/signal 1 2 3 4.0
