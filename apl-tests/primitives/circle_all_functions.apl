⍝ Every circle function ¯12○ to 12○ (Dyalog's definitions), on real arguments and, for the parts, magnitude,
⍝ conjugate and rotations, on complex ones. Values worked out by hand: asinh 2 = ln(2+√5), acosh 2 = ln(2+√3),
⍝ atanh 0.5 = ½ln 3, 8○x = (¯1-x*2)*0.5 = 0J√(1+x*2), ¯12○x = (cos x)J(sin x), 12○ of a negative real is π.
⍝> 1.443635475 1.316957897
⍝> 0.5493061443
⍝> 0J2.236067977
⍝> 0J¯1.118033989
⍝> 3 5 4
⍝> ¯3 3 0 3.141592654
⍝> 0 0
⍝> 0J2
⍝> 2J¯3
⍝> ¯3J2
⍝> 0.8775825619J0.4794255386
⍝> 0.5403023059J0.8414709848
⍝> 4J¯2
⍝> 7 7
¯5 ¯6○2
¯7○0.5
8○2
¯8○0.5
9 10 11○3J4
9 10 11 12○¯3
11 12○5
¯11○2
¯10○2J3
¯11○2J3
¯12○0.5
¯12○1
¯9○4J¯2
¯9 ¯10○7
