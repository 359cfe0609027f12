⍝ each with a function returning vectors gives a nested array: aplc keeps one as a strand only when the argument's
⍝ length is known when compiling (here it is the program's argument)
⍝! NONCE ERROR at 5:1
n←3 ⎕ArgInt 1
{⍵ ⍵}¨⍳n
