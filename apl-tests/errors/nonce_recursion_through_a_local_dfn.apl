⍝ A recursion through a local dfn whose guard is not decided by constants ((+/⍵)>4) neither unfolds nor compiles as
⍝ a loop or a recursive function; each way tried nests the others, and elaboration used to run for hours. The
⍝ bound on the dfn calls one statement may inline in all makes it a NONCE ERROR in seconds.
⍝! NONCE ERROR at 5:19
f←{(+/⍵)>4:⍵ ⋄ g←{f ⍵} ⋄ g 5 5}
f 1 0
