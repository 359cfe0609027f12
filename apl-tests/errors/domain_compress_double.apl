⍝ compress with a non-boolean, non-integer mask
⍝! DOMAIN ERROR
0.5 1/1 2
