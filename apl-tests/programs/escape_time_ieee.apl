⍝ aplc: float ieee
⍝ An escape-time iteration that lets points outside the set overflow, as C code and earlier APL compilers do: in the
⍝ IEEE float mode the overflowing point becomes ∞ and stays so, and the comparison at the end sees it (in Dyalog's
⍝ mode the overflow is a DOMAIN ERROR).
⍝ Worked by hand, z←c+z×z from z=0 forty times: c=¯2 gives ¯2, 2, 2, ... (bounded); c=0.25 rises towards 0.5
⍝ (bounded); c=1 gives 1, 2, 5, 26, 677, ... which passes 1e308 within ten more steps and is then ∞.
⍝> 1 1 0
⍝> 2 ∞
c←¯2 0.25 1
z←{c+⍵×⍵}⍣40⊢0 0 0
2≥|z
z[1 3]
