⍝ Index-space splitting (src/loops/passes/index_split.rs): rotations, take/drop shifts and catenations of a 20 by 20
⍝ matrix whose size is known only at run time (⎕ArgInt), each computed in loops cut into pieces at the bounds of
⍝ their selects; the interior pieces have no select left.
⍝ M[i;j] = 20(i-1)+j.
⍝ D←(1⌽M)-M: (1⌽M)[i;j] = M[i;1+j mod 20], so D is 1 except in column 20, where it is 1-20 = ¯19: 380 ones,
⍝ 20 times ¯19, all of them in column 20.
⍝> 380 20 20
⍝ E←(¯1⊖M)-M: (¯1⊖M)[i;j] = M[1+(i-2) mod 20;j], which is M[i-1;j] (E = ¯20) for i ≥ 2 and M[20;j] (E = 380) in
⍝ row 1.
⍝> 380 20 20
⍝ U←((1↑M)⍪¯1↓M)-M: row 1 is M's first row (0), row i ≥ 2 is M[i-1;] (¯20).
⍝> 20 380 20
⍝ L←(((n,1)↑M),0 ¯1↓M)-M: column 1 is M's own (0), column j ≥ 2 is M[;j-1] (¯1).
⍝> 20 380 20
⍝ v+1⌽v for v←⍳20: v[i]+v[1+i mod 20], the odd numbers 3 to 39, then 20+1.
⍝> 3 5 7 9 11 13 15 17 19 21 23 25 27 29 31 33 35 37 39 21
⍝ 1⌽⌽v: ⌽v is 20 19 ... 1, rotated by one: 19 18 ... 1, then 20. Its reads are (n-1-i+1) mod n: the index comes
⍝ with the coefficient ¯1.
⍝> 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 20
⍝ Structure: 26 innermost loops without a select. 12 are the reductions of the sums; the other 14 are interior and
⍝ border pieces: 2 of each ⌽ (cut where the rotation wraps), 2 of the ⊖ (its rows cut, the inner loops keep no
⍝ select), 1 of the ⍪ (the rows after the first; the first row keeps its range check), 5 of the , with takes (3 row
⍝ pieces of the take's range check × 2 column pieces, less the first column of the middle rows, which keeps its
⍝ check), 2 of v+1⌽v and 2 of 1⌽⌽v. Before splitting, every stencil's innermost loop had a select (12 in all).
⍝# mem select-free-innermost-loops 26
n←20 ⎕ArgInt 1
M←(n n)⍴⍳n×n
D←(1⌽M)-M
⎕←(+/,D=1),(+/,D=¯19),+/D[;n]=¯19
E←(¯1⊖M)-M
⎕←(+/,E=¯20),(+/,E=380),+/E[1;]=380
U←((1↑M)⍪¯1↓M)-M
⎕←(+/,U=0),(+/,U=¯20),+/U[1;]=0
L←(((n,1)↑M),0 ¯1↓M)-M
⎕←(+/,L=0),(+/,L=¯1),+/L[;1]=0
v←⍳n
⎕←v+1⌽v
⎕←1⌽⌽v
