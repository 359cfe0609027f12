⍝ +/ signal ⍳N is one loop with no intermediate allocation: a parallel reduction, no sequential loop. diff uses 0,⍵ twice; its elements (0 or the index)
⍝ are cheap, so lowering recomputes them at the two loads (lower/fusion.rs) instead of materialising a block (the
⍝ memory passes would remove such a block too).
⍝ ⍳20: index vectors of up to 16 items carry their values and would fold to a constant; this one is computed.
⍝ diff 0,⍳20 is twenty ones, so signal ⍳20 is 50÷0.01+⍳20 (all below the 50 clamp); the sum is
⍝ 50×(1÷1.01)+(1÷2.01)+...+(1÷20.01) = 179.0948519736344 (python3), 179.094852 at ⎕PP=10.
⍝> 179.094852
⍝# loops allocs 0
⍝# mem allocs 0
⍝# mem loops 1
⍝# mem copies 0
⍝# mem parallel-reductions 1
⍝# mem sequential-loops 0
diff←{1↓⍵-¯1⌽⍵}
signal←{¯50⌈50⌊50×(diff 0,⍵)÷0.01+⍵}
+/signal ⍳20
