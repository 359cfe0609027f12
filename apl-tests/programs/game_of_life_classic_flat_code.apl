⍝ Classic Life's nested arrays exist only while compiling: ⊂⍵, the 3×3 nested matrix of rotations and the two
⍝ enclosed boards of 3 4= become flat code, the same as the eight rotations written out
⍝ (apl-tests/programs/game_of_life_classic.apl compares the two forms' boards). Both compile to these counts (taken
⍝ from `aplc dump --stage mem` and `--stage opencl` of either form): three blocks (the board g, the state of ⍣ and
⍝ its next board), none allocated inside the loop, the Life step one parallel map; on OpenCL three kernels and no
⍝ board back to the host inside ⍣.
⍝ By hand: a glider keeps its 5 live cells in every generation.
⍝# mem allocs 3
⍝# mem allocs-in-loops 0
⍝# opencl kernels 3
⍝# opencl copies-to-host-in-loops 0
⍝> 5
life←{↑1 ⍵∨.∧3 4=+/,¯1 0 1∘.⊖¯1 0 1∘.⌽⊂⍵}
g←8 8↑3 3⍴0 1 0 0 0 1 1 1 1
+/,(life⍣8)g
