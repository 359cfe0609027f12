⍝ a dyadic fork: ⍺(f g h)⍵ is (⍺ f ⍵) g (⍺ h ⍵)
⍝> 4 2
⍝> 9
3(+,-)1
2(×+⊢)3
