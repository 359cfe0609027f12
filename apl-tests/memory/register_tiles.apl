⍝ Matrix products computed in register tiles (src/loops/passes/register_tiles.rs): the rows of A+.×B eight at a
⍝ time, 8×16 accumulators kept along k. The first product's sizes are known only at run time: 19 rows are two
⍝ tiles and three rows after them, 37 columns two tiles of columns and five after them; the second is one whole
⍝ tile of constant size.
⍝ Worked by hand: A[i;k] = (i+k)÷2 (19×23) and B[k;j] = j (23×37), so P[i;j] = j × Σk (i+k) ÷ 2 = j×(23i+276)÷2:
⍝ P[1;1] = 299÷2 = 149.5, P[9;17] = 17×483÷2 = 4105.5 and P[19;37] = 37×713÷2 = 13190.5. The sum of all elements
⍝ is (Σj j)×(Σi 23i+276)÷2 = 703×(4370+5244)÷2 = 703×9614÷2 = 3379321.
⍝ The second: B[k;j] = j÷2, so every element of (8 16⍴1)+.×B is 16×j÷2 = 8j; the sum is 8 rows × 8×(Σj j) =
⍝ 64×136 = 8704.
⍝> 149.5 4105.5 13190.5
⍝> 3379321
⍝> 8704
⍝# mem register-tiles 2
m←19 ⎕ArgInt 1
d←23 ⎕ArgInt 2
n←37 ⎕ArgInt 3
A←0.5×(⍳m)∘.+⍳d
B←(d n)⍴⍳n
P←A+.×B
⎕←P[1;1],P[9;17],P[19;37]
⎕←+/,P
⎕←+/,(8 16⍴1)+.×0.5×16 16⍴⍳16
