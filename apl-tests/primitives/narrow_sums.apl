⍝ Sums and differences of booleans are computed in the narrowest integer type that holds every value they can take
⍝ (src/codegen/llvm/translate/narrow.rs): a byte up to 127, 16 bits beyond. The results must be those of 64-bit
⍝ integers, at the edges of the narrow types too. v is 1 1 0 1 (n←4 read at run time, so nothing is folded).
⍝ Sum of 127 copies of v: 127×v; 127 is the largest byte.
⍝> 127 127 0 127
⍝ 128 copies need 16 bits: 128 128 0 128; compared with 128 (equal where v is 1) and with 127.
⍝> 128 128 0 128
⍝> 1 1 0 1
⍝> 1 1 0 1
⍝ 130 copies, less 3 copies of w (w←~v is 0 0 1 0): 130×v-3×w: 130 130 ¯3 130.
⍝> 130 130 ¯3 130
⍝ A neighbour-count-like sum of four booleans compared with 2 and 3: v+w+v+v is 3 3 1 3 (equal to 3 where v is 1).
⍝> 0 0 0 0
⍝> 1 1 0 1
⍝ A difference of booleans goes below zero: (w+w)-(v+v+v) is ¯3 ¯3 2 ¯3, less than 0 where v is 1.
⍝> ¯3 ¯3 2 ¯3
⍝> 1 1 0 1
⍝ x←100+(100 copies of v) is 200 200 100 200, y←100+(100 copies of w) is 100 100 200 100: both need 16 bits, while
⍝ x-y, ¯100 to 100, would fit a byte; it is computed in 16 bits, as its operands are. d←x-y is read twice by one
⍝ consumer, so it is one value per element, compared with 0 and with 50 (d=100 where v is 1).
⍝> 100 100 ¯100 100
⍝> 1 1 0 1
⍝ The same with p and q read only by e←p-q, so that all of it is one element's computation: e is 100 100 ¯100 100.
⍝> 0 0 1 0
n←4 ⎕ArgInt 1
v←(⍳n)≠3
w←~v
⎕←v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v
s←v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v
⎕←s
⎕←s=128
⎕←s>127
⎕←(v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v)-w+w+w
c←v+w+v+v
⎕←c=2
⎕←c=3
d←(w+w)-(v+v+v)
⎕←d
⎕←d<0
x←100+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v
y←100+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w
⎕←x-y
d←x-y
⎕←(d=0)∨d>50
p←100+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v+v
q←100+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w
e←p-q
⎕←(e<0)∨e=0
