⍝ f⍣≡ iterates until the result matches the argument; halving with floor reaches 0
⍝> 0
⍝> 1
{⌊⍵÷2}⍣≡100
{⍵⌊1}⍣≡5
