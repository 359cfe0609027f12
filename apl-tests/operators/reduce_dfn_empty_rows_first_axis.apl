⍝ A first-axis reduction by a dfn over a matrix with no rows at run time: DOMAIN ERROR (the axis reduced is empty,
⍝ though the result would have 3 items).
⍝! DOMAIN ERROR
n←¯1+?1
{⍺+2×⍵}⌿n 3⍴0
