⍝ A ⍣ whose state's shape is read at run time (n←4 ⎕ArgInt 1 is 4 when the program gets no argument): the step keeps
⍝ the shape, so the state's shape variables are constants of the loop and its two buffers alternate, both allocated
⍝ once before the loop, as they are with a constant size (before, the next state was allocated in every iteration).
⍝ Worked by hand: the state starts as the 2×4×4 array of 0; each step adds 1 to the first plane and 2 to the second;
⍝ after 5 steps the first plane is all 5 and the second all 10, so the sum is 16×5 + 16×10 = 240.
⍝> 240
⍝# mem allocs-in-loops 0
n←4 ⎕ArgInt 1
step←{(1↑⍵+1)⍪1↓⍵+2}
z←(step⍣5)(2,n,n)⍴0
+/,z
