⍝ A ⍣ of element-wise steps over two int vectors of 600 elements, with an invariant vector c beside the state:
⍝ element i of the next state reads element i of the state and of c only, so the memory passes run the steps strip
⍝ by strip (src/loops/passes/step_interchange.rs): 2 strips of 256 elements and a last strip of 88, each strip
⍝ taking all K steps, the state updated in place.
⍝ Worked by hand: with a₀ = i, b₀ = 0 and c = 2i, a step gives a+2i and b+a, so after k steps a = i(1+2k) and
⍝ b = Σ_{j<k} i(1+2j) = i·k². For K=3: a = 7i and b = 9i, whose sums over i = 1..600 are 7×180300 = 1262100 and
⍝ 9×180300 = 1622700; the first three elements of a are 7 14 21 and the last of b 9×600 = 5400.
⍝ Structure: the next blocks are never written, so the only blocks are the two of the state and the two printed
⍝ vectors (c is recomputed from its index where it is read); no loop is left outside the parallel maps. Those 4
⍝ blocks are counted twice: with n read at run time, the program after it runs in a second version for sizes below
⍝ 2^31 (src/loops/passes/size_versions.rs).
⍝> 1262100 1622700
⍝> 7 14 21 5400
⍝# mem allocs 8
⍝# mem allocs-in-loops 0
⍝# mem sequential-loops 0
n←600 ⎕ArgInt 1
K←3 ⎕ArgInt 2
c←2×⍳n
step←{(a b)←⍵ ⋄ (a+c) (b+a)}
(a b)←(step⍣K)(⍳n) (n⍴0)
⎕←(+/a),+/b
⎕←(3↑a),¯1↑b
