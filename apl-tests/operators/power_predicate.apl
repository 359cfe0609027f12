⍝ f⍣g stops when (f ⍵) g ⍵ is true: ⍺ is the new value; doubling 3 until above 100: 6 12 24 48 96 192
⍝> 192
⍝> 4
{⍵×2}⍣{⍺>100}3
{⍵+1}⍣{⍺=4}2
