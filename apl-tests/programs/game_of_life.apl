⍝ Conway's Game of Life on a torus, without nested arrays: neighbour counts from eight rotations
⍝ a glider on a 6 by 6 torus moves one cell down and one cell right every 4 generations
⍝ a blinker (vertical) becomes horizontal after one generation and returns after two
⍝> 0 0 0 0 0 0
⍝> 0 0 1 0 0 0
⍝> 0 0 0 1 0 0
⍝> 0 1 1 1 0 0
⍝> 0 0 0 0 0 0
⍝> 0 0 0 0 0 0
⍝> 5
⍝> 0 0 0 0 0
⍝> 0 0 0 0 0
⍝> 0 1 1 1 0
⍝> 0 0 0 0 0
⍝> 0 0 0 0 0
⍝> 1
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
life⍣4⊢g
+/,life⍣4⊢g
b←5 5⍴0
b[2;3]←1
b[3;3]←1
b[4;3]←1
life b
∧/,b=life life b
