⍝ The value of a selective assignment must have the selection's shape (or be a scalar): 2↑V has 2 items.
⍝! LENGTH ERROR
V←⍳5
(2↑V)←1 2 3
