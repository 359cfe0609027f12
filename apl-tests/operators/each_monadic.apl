⍝ ¨ applies a monadic function to each item (results are simple scalars)
⍝> 2 4 6
⍝> ¯1 ¯2
⍝> 1  4
⍝> 9 16
{⍵×2}¨1 2 3
-¨1 2
{⍵*2}¨2 2⍴⍳4
