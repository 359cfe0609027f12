⍝ ⌈/ and ⌊/ of an empty axis are the smallest and largest doubles (APL's identity items), also for integers and
⍝ booleans, whose other results are integers: Dyalog prints ¯1.797693135E308 and 1.797693135E308 at ⎕PP 10 (the
⍝ largest double is 1.7976931348623157E308). Along the first axis of a 0×3 matrix: three of them. Non-empty axes of
⍝ integers stay integers: ⌈/3 1 4 is 4.
⍝> ¯1.797693135E308
⍝> 1.797693135E308
⍝> ¯1.797693135E308
⍝> ¯1.797693135E308 ¯1.797693135E308 ¯1.797693135E308
⍝> 4 1
⌈/⍬
⌊/⍬
⌈/⍳0
⌈⌿0 3⍴0
(⌈/3 1 4),⌊/3 1 4
