⍝ APL computes every element of ÷(⍳9)-5 before x[1] picks one: the fifth is ÷0, a DOMAIN ERROR, although the
⍝ element picked (÷¯4) is fine. Compiled code fuses the division into the index, so it must still evaluate (and check)
⍝ every element of an array whose elements may fail before a partial read (index, take, drop, first).
⍝! DOMAIN ERROR
x←÷(⍳9)-5
x[1]
