⍝ Dyadic ⍉ whose axes are computed at compile time from the rank: (⍳⍴⍴A) is the identity, (⌽⍳⍴⍴A) reverses the
⍝ axes, k⌽⍳⍴⍴A rotates them (axis i of A becomes axis axes[i] of the result), also inside a dfn.
⍝> 1 2 3
⍝> 4 5 6
⍝> 1 4
⍝> 2 5
⍝> 3 6
⍝> 4 2 3
⍝> 3 4 2
⍝> 4 3 2
⍝> 1 4
⍝> 2 5
⍝> 3 6
⍝> 13
A←2 3⍴⍳6
(⍳⍴⍴A)⍉A
(⌽⍳2)⍉A
B←2 3 4⍴⍳24
⍴(1⌽⍳3)⍉B
⍴(¯1⌽⍳⍴⍴B)⍉B
⍴(⌽⍳⍴⍴B)⍉B
f←{(⌽⍳⍴⍴⍵)⍉⍵}
f A
((1⌽⍳⍴⍴B)⍉B)[1;2;1] ⍝ result[i;j;k] is B[j;k;i]: B[2;1;1] = 13
