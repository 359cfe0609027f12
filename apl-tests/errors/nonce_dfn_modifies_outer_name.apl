⍝ In Dyalog, acc+←⍵ inside a dfn that has no acc of its own adds to the global acc (here 15 after the five calls),
⍝ a side effect that inlined dfns cannot give: refused rather than computed on a local copy, which printed 0.
⍝! NONCE ERROR at 5:6
acc←0
add←{acc+←⍵}
add¨⍳5
acc
