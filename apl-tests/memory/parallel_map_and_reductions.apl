⍝ Which loops run in parallel: the map that fills x (one parfor), the sum of squares (a parallel reduction of
⍝ chunks: + on doubles may associate), and ⌈/ on doubles, which keeps APL's right-to-left order (max of -0.0 and
⍝ 0.0 depends on the order) and stays one sequential loop.
⍝ Σ(i÷3)² for i in 1..10000 = 10000×10001×20001÷54 = 37042592777.78, 3.704259278E10 at ⎕PP=10; ⌈/x = 10000÷3.
⍝> 3.704259278E10
⍝> 3333.333333
⍝# mem parallel-maps 1
⍝# mem parallel-reductions 1
⍝# mem sequential-loops 1
x←(⍳10000)÷3
⎕←+/x×x
⎕←⌈/x
