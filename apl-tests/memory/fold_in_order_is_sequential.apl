⍝ -/ is APL's right fold (1-(2-(3-...))), not associative: it stays one sequential loop, not a parallel reduction.
⍝ 1-2+3-4+5-6+7-8+9-10 = ¯5.
⍝> ¯5
⍝# mem sequential-loops 1
⍝# mem parallel-reductions 0
⍝# mem parallel-maps 0
⎕←-/⍳10
