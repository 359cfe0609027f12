⍝ A ⍣ loop whose state is built by ⍪ has a shape lowering only knows symbolically (it computes the next shape from
⍝ the current one in every iteration). The shape never changes here (1↑ and 1↓ of a 2-plane state, catenated back
⍝ to 2 planes), so the next state's block always has the state's size: it is allocated once, before the loop, and
⍝ the two blocks alternate (double buffering): no allocation inside the loop.
⍝ With a and b the two planes, step gives a+b and 2×b: after 10 steps b is 2*10 × 3 4 = 3072 4096 and a is
⍝ 1 2 + (3 4 × 1+2+...+2*9) = 1 2 + 3 4 × 1023 = 3070 4094. The rank-3 result shows its planes with a blank line.
⍝> 3070 4094
⍝>
⍝> 3072 4096
⍝# loops allocs-in-loops 1
⍝# mem allocs-in-loops 0
⍝# mem allocs 2
step←{
  a←1↑⍵
  b←1↓⍵
  (a+b)⍪b×2
}
(step⍣10)2 1 2⍴⍳4
