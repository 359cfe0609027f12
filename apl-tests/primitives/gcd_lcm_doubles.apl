⍝ on doubles ∨ and ∧ are the GCD and LCM too, as in Dyalog: Euclid's steps with the tolerant residue stop at a
⍝ divisor within ⎕CT of dividing (0.2∨0.3 is 0.1, though 0.3|0.2 leaves 0.1 with rounding errors), and the LCM is
⍝ not rounded to an integer. The LCM of a vector by reduction divides by the GCD, so its accumulator is a double.
⍝> 12
⍝> 60
⍝> 0.1
⍝> 0.5
⍝> 7.5
⍝> 0.5 1 1.5 1 0.5 3
⍝> 2.5 5 7.5 10 2.5 15
⍝> 2.5 0
⍝> ¯7.5
{(⍺×⍵)÷⍺∨⍵}/4 6
{(⍺×⍵)÷⍺∨⍵}/4 6 10
0.2∨0.3
1.5∨2.5
1.5∧2.5
x←0.5×⍳6
x∨3
2.5∧x
(0∨2.5),0∧2.5
¯1.5∧2.5
