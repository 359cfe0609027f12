⍝ ×/ on doubles folds each chunk of 4096 elements in order on every backend. Its magnitude compounds, so folding
⍝ like elements together (in vector lanes or a kernel's lanes) can overflow where the ordered product does not.
⍝ By hand: p←×\8192⍴0.5 2 is 0.5 1 0.5 1 …, so 2×p×p is 0.5 2 0.5 2 …, whose running product is 0.5 or 1: ×/ is 1
⍝ (native code once multiplied every 32nd element together in vector lanes, lanes of only 2s, and overflowed).
⍝ In 8192⍴(128⍴2),128⍴0.5 each 256 elements multiply to 2*128 × 0.5*128 = 1 and no running product passes 2*128:
⍝ ×/ is 1 (an OpenCL kernel once gave lanes 0 to 127 only 2s, and their subtree reached 2*2048).
⍝> 1
⍝> 1
p←×\8192⍴0.5 2
×/2×p×p
×/8192⍴(128⍴2),128⍴0.5
