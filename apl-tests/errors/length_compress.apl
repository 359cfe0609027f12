⍝ the mask of a compression must match the length of the argument
⍝! LENGTH ERROR
1 0/1 2 3
