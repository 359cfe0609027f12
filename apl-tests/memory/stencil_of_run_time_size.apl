⍝ A stencil step of a run-time size (n←3 ⎕ArgInt 1 is 3 here, k←2 ⎕ArgInt 2 steps) that takes and drops rows and
⍝ columns of its state, as HotSpot does: the state cannot fail, so the takes and drops read it where it is, and ⍵+
⍝ keeps its shape, so its two buffers are allocated once. No array is allocated inside the ⍣ loop (a partial read
⍝ once copied the state's columns in every step, taking a division by an extent for an element that could fail).
⍝ Worked by hand: from the 3×3 array of ones, up (the first row, then all rows but the last) and left (the first
⍝ column, then all columns but the last) are all ones, so a step gives all threes, the second all nines: the sum is
⍝ 9×9 = 81.
⍝> 81
⍝# mem allocs-in-loops 0
n←3 ⎕ArgInt 1
k←2 ⎕ArgInt 2
step←{
  up←(1↑⍵)⍪¯1↓⍵
  left←((n,1)↑⍵),0 ¯1↓⍵
  ⍵+up+left
}
+/,(step⍣k)n n⍴1
