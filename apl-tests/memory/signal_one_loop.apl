⍝ +/ signal ⍳N is one loop with no intermediate allocation: a parallel reduction, no sequential loop. diff uses 0,⍵ twice; its elements (0 or the index)
⍝ are cheap, so lowering recomputes them at the two loads (loops/fusion.rs) instead of materialising a block (the
⍝ memory passes would remove such a block too).
⍝ diff 0,⍳10 is ten ones, so signal ⍳10 is 50÷0.01+⍳10 (all below the 50 clamp); the sum is
⍝ 50×(1÷1.01)+(1÷2.01)+...+(1÷10.01) = 145.6794629043455 (python3), 145.6794629 at ⎕PP=10.
⍝> 145.6794629
⍝# loops allocs 0
⍝# mem allocs 0
⍝# mem loops 1
⍝# mem copies 0
⍝# mem parallel-reductions 1
⍝# mem sequential-loops 0
diff←{1↓⍵-¯1⌽⍵}
signal←{¯50⌈50⌊50×(diff 0,⍵)÷0.01+⍵}
+/signal ⍳10
