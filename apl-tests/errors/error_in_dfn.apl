⍝ an error raised inside a called dfn stops the script; earlier output is kept
⍝> 5
⍝! LENGTH ERROR
f←{⍵+1 2}
⎕←5
f 1 2 3
