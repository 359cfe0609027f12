⍝ f⍣g stops when (f ⍵) g ⍵ is true: ⍺ is the new value; doubling 1 until above 100 gives 128
⍝> 128
⍝> 4
{⍵×2}⍣{⍺>100}1
{⍵+1}⍣{⍺=4}0
