⍝ mandelbrot: escape-time iteration z←z²+c over a whole M×M grid of c in [¯2,0.5)×[¯1.25,1.25) with the power
⍝ operator, K iterations; a point stops moving once |z|²>4. Prints the number of points still inside (|z|²≤4).
⍝ The state is one 2×M×M array (real parts, then imaginary parts) so that ⍣ iterates a single flat array.
⍝ Checked by hand: for M=2 the c values are ¯2¯1.25i ¯0.75¯1.25i ¯2 ¯0.75 (|c|² = 5.5625 2.125 4 0.5625), so K=1
⍝ prints 3; then ¯0.75¯1.25i goes to ¯1.75+0.625i (|z|²=3.45, K=2 prints 3) and to 1.921875¯3.4375i (escapes), while
⍝ ¯2 sits at 2 and ¯0.75 stays small: K=3 prints 2. C and NumPy print the same count at every size (every operation
⍝ is the same IEEE operation in the same order).
M←512 ⎕ArgInt 1
K←100 ⎕ArgInt 2
x←¯2+2.5×(¯1+⍳M)÷M
y←¯1.25+2.5×(¯1+⍳M)÷M
cr←(1,M,M)⍴x
ci←(1,M,M)⍴y∘.×M⍴1
iterate←{
  zr←1↑⍵
  zi←1↓⍵
  inside←4≥(zr×zr)+zi×zi
  nr←(inside×cr+(zr×zr)-zi×zi)+(1-inside)×zr
  ni←(inside×ci+2×zr×zi)+(1-inside)×zi
  nr⍪ni
}
z←(iterate⍣K)(2,M,M)⍴0.0
zr←1↑z
zi←1↓z
⎕←+/,4≥(zr×zr)+zi×zi
