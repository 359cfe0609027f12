⍝ an error raised inside a called dfn stops the script; earlier output is kept
⍝ the bad index depends on the data (1+⌈/⍵ = 4 for a 3-vector), so it is found when the dfn runs
⍝> 5
⍝! INDEX ERROR at 5:4
f←{⍵[1+⌈/⍵]}
⎕←5
f 1 2 3
