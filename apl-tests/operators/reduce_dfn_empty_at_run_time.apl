⍝ A reduction by a dfn (no identity item) over an axis whose length the compiler does not know: it runs while the
⍝ axis is non-empty and is a DOMAIN ERROR once the program finds it empty (?1 is always 1, so n is 0, but only at
⍝ run time).
⍝ Worked by hand: f(a,b) = a+2b folds 1 2 3 from the right: 1 f (2 f 3) = 1+2×(2+2×3) = 17.
⍝ The rows of 2 2⍴⍳4 are 1 2 and 3 4: 1-2 and 3-4 are ¯1 ¯1. Then ⍳n is empty.
⍝> 17
⍝> ¯1 ¯1
⍝! DOMAIN ERROR
n←¯1+?1
{⍺+2×⍵}/⍳n+3
{⍺-⍵}/2 (n+2)⍴⍳6
{⍺+2×⍵}/⍳n
