⍝ f⍣n applies f n times; f⍣0 is the identity (seeds already have the result type)
⍝> 24
⍝> 3072
⍝> 5
{⍵×2}⍣3⊢3
(2∘×)⍣10⊢3
{⍵+1}⍣0⊢5
