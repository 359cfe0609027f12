⍝ The Game of Life ⍣ loop over a fixed 6 by 6 board allocates one block outside the loop (the next state, which is
⍝ swapped with the state every generation) and none inside. The neighbour counts n, used twice but both times at the
⍝ element the rule computes, are not an array at all: each cell's count is computed once in the loop of the rule
⍝ (src/lower/fusion.rs). The board's own block is the second allocation: the five updates g[i;j]←1 store into it
⍝ in place (each old board dies at its update), and the loop's state takes it over (g is not used after the loop),
⍝ so no copy remains.
⍝ The ⍣ loop is the one sequential loop (outside parallel constructs). Each generation is one parallel map over the
⍝ rows, cut by index-space splitting into three pieces of rows (the first row, whose upper neighbour wraps, the
⍝ middle ones and the last row), each a parallel map, beside the map as it was, which runs here since rows of 6
⍝ cells are too short to split: 4 parallel maps. The board's fill is a fifth and the final +/, a parallel
⍝ reduction.
⍝ A glider keeps its 5 live cells.
⍝> 5
⍝# loops allocs-in-loops 0
⍝# mem allocs 2
⍝# mem allocs-in-loops 0
⍝# mem copies 0
⍝# mem frees 2
⍝# mem sequential-loops 1
⍝# mem parallel-maps 5
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
