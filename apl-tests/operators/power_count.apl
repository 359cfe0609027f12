⍝ f⍣n applies f n times; f⍣0 is the identity
⍝> 8
⍝> 1024
⍝> 5
{⍵×2}⍣3⊢1
(2∘×)⍣10⊢1
{⍵+1}⍣0⊢5
