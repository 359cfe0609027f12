⍝ A matrix product by the state of a ⍣, with sizes known only at run time: {A+.×⍵}⍣K ⊢ B. The state keeps its shape
⍝ (A is square), so lowering's mutable for the state's rows, which starts as the let of B's rows and is assigned the
⍝ let of A's rows (the same let), becomes a constant of the loop (src/loops/passes/invariant_mutables.rs). The
⍝ state's elements are then read at affine indices, and the product gets the i-k-j order and a register tile
⍝ (src/loops/passes/register_tiles.rs) as a product outside a loop does; before, its rows were reductions down the
⍝ state's columns through a residue (matmul 512 inside a ⍣: 283 ms a product, 4.4 ms with the tile).
⍝ Worked by hand: A is 2 times the identity (n=10: one tile of rows and two rows after it) and B[i;j] = j÷2 with 20
⍝ columns (one tile of columns and four after it), so K=3 products give 8×B: P[i;j] = 4j, P[1;1] = 4,
⍝ P[10;20] = 80, and the sum is 10 rows × 4×(Σj j) = 40×210 = 8400.
⍝> 4 80
⍝> 8400
⍝# mem register-tiles 1
n←10 ⎕ArgInt 1
K←3 ⎕ArgInt 2
A←0.5×4×(⍳n)∘.=⍳n
B←0.5×(n 20)⍴⍳20
P←{A+.×⍵}⍣K ⊢ B
⎕←P[1;1],P[n;20]
⎕←+/,P
