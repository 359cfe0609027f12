⍝ life: Conway's Game of Life on an N×N torus for G generations, from the board where cell (i,j) is alive when
⍝ (7i²+13j²+5ij) mod 17 < 6; prints the number of live cells at the end.
⍝ Checked by hand: for N=3 the live cells of B0 are (1,2) (1,3) (2,1) (2,3) (3,3), so G=0 prints 5; on a 3×3 torus
⍝ every cell neighbours the 8 others, so each live cell has 4 live neighbours and dies, each dead one has 5 and stays
⍝ dead: G=1 prints 0. At N=16 G=10 a plain-Python set-based Life gave the same count as life.c and life.py, which
⍝ agree at all sizes.
N←1000 ⎕ArgInt 1
G←100 ⎕ArgInt 2
I←⍳N
B0←6>17|((7×I×I)∘.+13×I×I)+5×I∘.×I
life←{
  n←(1⊖⍵)+(¯1⊖⍵)+(1⌽⍵)+(¯1⌽⍵)+(1⊖1⌽⍵)+(1⊖¯1⌽⍵)+(¯1⊖1⌽⍵)+¯1⊖¯1⌽⍵
  (n=3)∨⍵∧n=2
}
⎕←+/,(life⍣G)B0
