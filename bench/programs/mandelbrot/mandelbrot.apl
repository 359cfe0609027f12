⍝ mandelbrot: escape-time iteration z←z²+c over a whole M×M grid of c in [¯2,0.5)×[¯1.25,1.25) with the power
⍝ operator, K iterations; a point stops moving once |z|²>4. Prints the number of points still inside (|z|²≤4).
⍝ The state is three arrays: the real and imaginary parts of z, and the number of steps each point began inside
⍝ (a strand that the step destructures; each array of the state has a block of its own).
⍝ Checked by hand: for M=2 the c values are ¯2¯1.25i ¯0.75¯1.25i ¯2 ¯0.75 (|c|² = 5.5625 2.125 4 0.5625), so K=1
⍝ prints 3; then ¯0.75¯1.25i goes to ¯1.75+0.625i (|z|²=3.45, K=2 prints 3) and to 1.921875¯3.4375i (escapes), while
⍝ ¯2 sits at 2 and ¯0.75 stays small: K=3 prints 2. C and NumPy print the same count at every size (every operation
⍝ is the same IEEE operation in the same order).
M←512 ⎕ArgInt 1
K←100 ⎕ArgInt 2
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
