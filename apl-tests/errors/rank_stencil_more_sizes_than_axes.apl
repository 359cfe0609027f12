⍝ ⌺ with more window sizes than the argument has axes.
⍝! RANK ERROR at 3:1
{+/⍵}⌺3 3⊢1 2 3 4
