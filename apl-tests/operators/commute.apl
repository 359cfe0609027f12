⍝ f⍨ swaps the arguments; monadic f⍨ uses ⍵ on both sides
⍝> 8
⍝> 6
⍝> 1 4 9
⍝> 2 2 2
⍝> 4
2-⍨10
+⍨3
×⍨1 2 3
2⍴⍨3
÷⍨/2 8
