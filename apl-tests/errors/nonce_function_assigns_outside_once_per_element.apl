⍝ In Dyalog, acc+←⍵ inside a dfn that has no acc of its own adds to the global acc; applied to each of n items, n
⍝ known only when running, that would make acc a loop's state, which aplc does not do for ¨: refused rather than
⍝ lost.
⍝! NONCE ERROR at 8:1
n←5 ⎕ArgInt 1
acc←0
add←{acc+←⍵}
add¨⍳n
acc
