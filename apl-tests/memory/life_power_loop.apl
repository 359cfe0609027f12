⍝ The Game of Life ⍣ loop over a fixed 6 by 6 board allocates two blocks outside the loop (the next state, which
⍝ is swapped with the state every generation, and the neighbour counts n, used twice so materialised, whose
⍝ allocation is hoisted out of the loop) and none inside. The board's own block is the third allocation: the five
⍝ updates g[i;j]←1 store into it in place (each old board dies at its update), and the loop's state takes it over
⍝ (g is not used after the loop), so no copy remains.
⍝ The ⍣ loop is the one sequential loop (outside parallel constructs); each generation runs two parallel maps
⍝ (the neighbour counts, the next state); the board's fill is a third and the final +/, a parallel reduction.
⍝ A glider keeps its 5 live cells.
⍝> 5
⍝# loops allocs-in-loops 1
⍝# mem allocs 3
⍝# mem allocs-in-loops 0
⍝# mem copies 0
⍝# mem frees 3
⍝# mem sequential-loops 1
⍝# mem parallel-maps 3
⍝# mem parallel-reductions 1
life←{
  n←(1⊖⍵)+(¯1⊖⍵)+(1⌽⍵)+(¯1⌽⍵)+(1⊖1⌽⍵)+(1⊖¯1⌽⍵)+(¯1⊖1⌽⍵)+(¯1⊖¯1⌽⍵)
  (n=3)∨⍵∧n=2
}
g←6 6⍴0
g[1;2]←1
g[2;3]←1
g[3;1]←1
g[3;2]←1
g[3;3]←1
+/,life⍣4⊢g
