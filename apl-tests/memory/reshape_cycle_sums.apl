⍝ Reductions of a vector reshaped to R×Y elements, with Y←7 ⎕ArgInt 1 and R←5 ⎕ArgInt 2 known only at run time:
⍝ element k of the reshaped vector is element k mod Y of ⍳Y, so the sum of 3|x and the maximum become maps of R row
⍝ reductions over Y (one block of R results each) and a reduction of those, with no division per element
⍝ (src/loops/passes/product_ranges.rs). The sum of squares stays as it is: a checked sum is regrouped only when its
⍝ elements are bounded, and the ranges know no bound for the squares of elements of a run-time length. Kept in a
⍝ variable and read twice, x is filled by a map over R×Y elements, which becomes R rows of Y without a division.
⍝ Worked by hand: with x←(R×Y)⍴⍳Y, x×x sums 5 × (1+4+9+16+25+36+49) = 5 × 140 = 700; 3|x sums
⍝ 5 × (1+2+0+1+2+0+1) = 35; the largest element is 7; the sum of x and its maximum make 5 × 28 + 7 = 147.
⍝> 700
⍝> 35
⍝> 7
⍝> 147
⍝ Three blocks, counted twice: the program after Y runs in a second version for sizes below 2^31
⍝ (src/loops/passes/size_versions.rs), with the same splits.
⍝# mem allocs 6
Y←7 ⎕ArgInt 1
R←5 ⎕ArgInt 2
⎕←+/×⍨(R×Y)⍴⍳Y
⎕←+/3|(R×Y)⍴⍳Y
⎕←⌈/(R×Y)⍴⍳Y
x←(R×Y)⍴⍳Y
⎕←(+/x)+⌈/x
