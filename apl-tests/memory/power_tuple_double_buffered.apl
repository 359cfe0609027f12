⍝ A ⍣ whose state is two vectors that keep their length (issue #14, item 1): each vector has two blocks, allocated
⍝ before the loop and swapped after every step (double buffering), so nothing is allocated in the loop. Both next
⍝ vectors are computed before either block is swapped (b's next value reads a), in one parallel map (they keep the
⍝ same shape). That map is element-wise (element i of the next state reads element i of the state), so the memory
⍝ passes then run the steps strip by strip, updating the state in place (src/loops/passes/step_interchange.rs): the
⍝ next blocks are never written and their allocations go, two in all. The parallel maps are the two that fill the
⍝ first state, the map over whole strips and the one over the last strip's elements, 4 in all (5 elements: all of
⍝ them in the last strip at this size), and no loop is left outside them.
⍝ Steps of (a+b) (a×2) from (1 2 3 4 5) (1 1 1 1 1): (2 3 4 5 6)(2 4 6 8 10), (4 7 10 13 16)(4 6 8 10 12),
⍝ (8 13 18 23 28)(8 14 20 26 32), (16 27 38 49 60)(16 26 36 46 56).
⍝> 16 27 38 49 60
⍝> 16 26 36 46 56
⍝# mem allocs 2
⍝# mem sequential-loops 0
⍝# mem allocs-in-loops 0
⍝# mem copies 0
⍝# mem parallel-maps 4
n←5 ⎕ArgInt 1
step←{(a b)←⍵ ⋄ (a+b) (a×2)}
(x y)←(step⍣4)(⍳n) (n⍴1)
⎕←x
⎕←y
