⍝ Two names for a vector of three items.
⍝! LENGTH ERROR
(a b)←1 2 3
