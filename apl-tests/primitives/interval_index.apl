⍝ Dyadic ⍸ (interval index): for an ascending ⍺, the index of the interval ⍺[i] ≤ y < ⍺[i+1] holding each y, 0
⍝ before the first; the result has the shape of ⍵ (Dyalog: 1 3 5⍸4 0 7 3 is 2 0 3 2). Characters too.
⍝ By hand, a long ⍺: in ⍳100, 0 is before the first (0), 1 in interval 1, 50.5 in 50, 100 and 101 in 100. An empty
⍝ ⍺ puts everything before the first (0 0); an empty ⍵ gives an empty result (an empty line).
⍝> 2 0 3 2
⍝> 2
⍝> 0 1
⍝> 3 3
⍝> 2 2 3 3 4
⍝> 1 1 2
⍝> 0
⍝> 0 1 50 100 100
⍝> 0 0
⍝>
1 3 5⍸4 0 7 3
1 3 5⍸3
1 3 5⍸2 2⍴0 1 5 6
'aeiou'⍸'hello'
0.5 1.5 2.5⍸1 0.5 1.5
f←{⍺⍸⍵}
(⍳3) f 0
(⍳100)⍸0 1 50.5 100 101
⍬⍸1 2
1 2 3⍸⍬
