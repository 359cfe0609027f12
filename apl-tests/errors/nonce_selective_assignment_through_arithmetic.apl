⍝ A selective assignment selects items with structural functions; 2×V would not select V's items (Dyalog does
⍝ not allow it either), so × is refused and pointed at.
⍝! NONCE ERROR at 5:3
V←⍳5
(2×V)←1
V
