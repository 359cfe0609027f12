⍝ ⌺ with an even window size: the window cannot be centred on an item, and aplc does not place it as Dyalog does.
⍝! NONCE ERROR at 3:1
{+/⍵}⌺2⊢1 2 3 4
