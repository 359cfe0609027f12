⍝ ⌺ whose function gives results of different shapes (the windows at the edges are shorter after the compress):
⍝ aplc needs one shape, where Dyalog pads.
⍝! LENGTH ERROR
{(⍵≠0)/⍵}⌺3⊢1 2 3
