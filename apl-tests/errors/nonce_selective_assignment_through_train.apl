⍝ A function in parentheses (here the train 2×⊢, which doubles) is refused in a selective assignment like any
⍝ function that does not select items: the check reads the selection resolved, not its glyphs.
⍝! NONCE ERROR at 5:2
V←⍳5
((2×⊢)V)←1
V
