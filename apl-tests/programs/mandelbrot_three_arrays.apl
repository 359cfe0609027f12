⍝ Mandelbrot's escape-time iteration with a state of three arrays (issue #14, item 1): the real and imaginary parts
⍝ of z and the number of steps each point began inside |z|²≤4, destructured in the step and iterated by ⍣ on every
⍝ backend (each array of the state has a block of its own, double-buffered).
⍝ Worked by hand for M=2, K=3 (the grid of bench/programs/mandelbrot): c is ¯2¯1.25i ¯0.75¯1.25i / ¯2 ¯0.75.
⍝ ¯2¯1.25i leaves after one step (|c|²=5.5625) and stays put: n=1. ¯0.75¯1.25i goes to ¯1.75+0.625i (|z|²≈3.45)
⍝ and then to 1.921875¯3.4375i: inside at the start of all 3 steps, n=3, outside at the end. ¯2 goes to ¯2, 2, 2
⍝ (|z|²=4, inside) and ¯0.75 to ¯0.75, ¯0.1875, ¯0.71484375: n=3 for both, inside at the end.
⍝ Structure: the three arrays of the next state keep their shape, so their next blocks are allocated once, before
⍝ the loop, and computed in one loop per step, where inside is computed once per point and never stored.
⍝# mem allocs-in-loops 0
⍝> 2
⍝> 1 3
⍝> 3 3
⍝ The real parts, row by row: ¯2 1.921875 2 ¯0.71484375.
⍝> ¯2 1.921875 2 ¯0.71484375
M←2 ⎕ArgInt 1
K←3 ⎕ArgInt 2
x←¯2+2.5×(¯1+⍳M)÷M
y←¯1.25+2.5×(¯1+⍳M)÷M
cr←(M,M)⍴x
ci←y∘.×M⍴1
step←{
  (zr zi n)←⍵
  inside←4≥(zr×zr)+zi×zi
  nr←(inside×cr+(zr×zr)-zi×zi)+(1-inside)×zr
  ni←(inside×ci+2×zr×zi)+(1-inside)×zi
  nr ni (n+inside)
}
zero←(M,M)⍴0.0
(zr zi n)←(step⍣K)zero zero (M M⍴0)
⎕←+/,4≥(zr×zr)+zi×zi
⎕←n
⎕←,zr
