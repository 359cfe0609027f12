⍝ Only primitive functions have identity items: a dfn reducing an empty axis is a DOMAIN ERROR, as in Dyalog, even
⍝ one that is a single primitive ({⍺+⍵}); +/⍬ is 0. Here the axis is empty only when the program runs.
⍝! DOMAIN ERROR at 9:1
⍝> 0
⍝> 0
n←0 ⎕ArgInt 1
+/n⍴5
{⍺+⍵}/5⍴n
{⍺+⍵}/n⍴5
