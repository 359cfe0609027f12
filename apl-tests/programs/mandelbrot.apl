⍝ Mandelbrot escape counts on a 5 by 7 grid with ⍣ and a stopping predicate, state (re im count)
⍝ columns re = ¯2 ¯1.5 ¯1 ¯0.5 0 0.5 1, rows im = 1 0.5 0 ¯0.5 ¯1; at most 20 iterations
⍝ count = the first k with |z_k|²>4 (z_1 = c), or 20; worked with python3 using the same operations
⍝ e.g. c=¯2+i: |c|²=5 → 1; c=0.5: 0.5 0.75 1.0625 1.6289 3.1533 → 5; c=i is periodic → 20;
⍝ c=¯2 stays at |z|²=4 exactly (not above 4) → 20; c=1: 1 2 5 → 3
⍝>  1  2  3  4 20 2 2
⍝>  1  3  5 20 20 5 2
⍝> 20 20 20 20 20 5 3
⍝>  1  3  5 20 20 5 2
⍝>  1  2  3  4 20 2 2
step←{(⍺[1]+(⍵[1]×⍵[1])-⍵[2]×⍵[2]),(⍺[2]+2×⍵[1]×⍵[2]),⍵[3]+1}
done←{(4<(⍺[1]×⍺[1])+⍺[2]×⍺[2])∨⍺[3]≥20}
esc←{c←⍺,⍵ ⋄ r←c step⍣done 0×c,0 ⋄ r[3]}  ⍝ 0×c,0 is a double zero state
CX←5 7⍴¯2 ¯1.5 ¯1 ¯0.5 0 0.5 1
CY←⍉7 5⍴1 0.5 0 ¯0.5 ¯1
CX esc¨CY
