⍝ Matrix products whose size is known only at run time (⎕ArgInt with its default), so that each product's i-k-j
⍝ loop nest gets two versions (src/loops/passes/parallelise.rs): its rows in parallel, or one row after another
⍝ with each row's update in parallel, chosen by the parameter outer_<i> (aplc dump --stage params; default 16 on
⍝ the CPU, so the 3×3 product takes the second version and the 20×20 one the first). Both versions must print the
⍝ same; tests/tune_command.rs also runs this file with every threshold at 0 and at its largest.
⍝ A[i;k] = (i+k)/2 and B[k;j] = kj/2, so (A+.×B)[i;j] = j × Σk (i+k)k / 4, and the sum of all elements is
⍝ Σk (column k's sum of A) × (row k's sum of B).
⍝ n=3: row i is j(6i+14)/4: 5j, 6.5j, 8j.
⍝> 5   10 15
⍝> 6.5 13 19.5
⍝> 8   16 24
⍝ Its sum: Σk (6+3k)/2 × 6k/2 = 1.5 × Σk (6k+3k²) = 1.5 × (36+42) = 117 (the rows: 30+39+48).
⍝> 117
⍝ n=20: Σk (210+20k)/2 × 210k/2 = 52.5 × (210×210 + 20×2870) = 52.5 × 101500 = 5328750.
⍝> 5328750
⍝ Two products with two versions each, and the whole program twice: it runs in a second version for sizes below
⍝ 2^31 (src/loops/passes/size_versions.rs), so the count is 4.
⍝# mem versions 4
product←{A←0.5×(⍳⍵)∘.+⍳⍵ ⋄ B←0.5×(⍳⍵)∘.×⍳⍵ ⋄ A+.×B}
P←product 3 ⎕ArgInt 1
P
+/,P
+/,product 20 ⎕ArgInt 2
